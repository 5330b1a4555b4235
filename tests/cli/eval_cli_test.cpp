// `gpu-advisor eval-model` on inference rows, through the real binary.
#include "cli_runner.h"

#include <gtest/gtest.h>

namespace advisor::testing {
namespace {

TEST(EvalModelCli, EachRowSaysWhatItMeasures) {
    Cli cli;
    // timm's 2022 ResNet-50 in float16 on an RTX 3090 and 4090, trained and run (samples/s).
    const auto f = cli.write("timm.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                         "RTX 3090,1,resnet50,cnn,fp16,256,890,x\n"
                                         "RTX 4090,1,resnet50,cnn,fp16,256,1285,x\n"
                                         "RTX 3090,1,resnet50,cnn-inference,fp16,256,3017,x\n"
                                         "RTX 4090,1,resnet50,cnn-inference,fp16,256,4495,x\n");
    const auto doc = cli.json({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    const auto& rows = doc.at("rows");
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows.at(1).at("metric"), "fp16-training");
    EXPECT_EQ(rows.at(1).at("workload_class"), "cnn");
    EXPECT_NEAR(rows.at(1).at("measured_relative").get<double>(), 1285.0 / 890.0, 1e-9);
    EXPECT_EQ(rows.at(3).at("metric"), "fp16-inference");
    EXPECT_EQ(rows.at(3).at("workload_class"), "cnn-inference");
    EXPECT_NEAR(rows.at(3).at("measured_relative").get<double>(), 4495.0 / 3017.0, 1e-9);
    EXPECT_EQ(doc.at("summary").at("single_gpu").at("rows"), 2);

    // A 32-bit inference row is refused with its file, line and field, and nothing is evaluated.
    const auto bad =
        cli.write("bad.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                             "RTX 3090,1,resnet50,cnn-inference,fp32,256,1708,x\n");
    const auto r = cli.run({"eval-model", "--benchmarks", bad});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.err.find("bad.csv:2: field 'precision': an inference row must be fp16, bf16, int8, fp8 or int4"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

} // namespace
} // namespace advisor::testing
