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

TEST(EvalModelCli, SaysWhichOfTheReferencesRunsIsTheReference) {
    Cli cli;
    // tf_cnn_benchmarks' ResNet-50 and VGG16 on one and two RTX 3090s at 64 and 256 images per GPU
    // (the first run of the reference card is the reference), and a repeat of one BERT run.
    const auto f = cli.write("runs.csv", "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n"
                                         "RTX 3090,1,resnet50,cnn,fp16,64,1026.83,x\n"
                                         "RTX 3090,2,resnet50,cnn,fp16,128,1828.21,x\n"
                                         "RTX 3090,1,resnet50,cnn,fp16,256,1181.90,x\n"
                                         "RTX 4090,1,resnet50,cnn,fp16,64,1688.03,x\n"
                                         "RTX 3090,1,vgg16,cnn,fp16,64,419.83,x\n"
                                         "RTX 3090,1,vgg16,cnn,fp16,256,455.41,x\n"
                                         "RTX 3090,2,vgg16,cnn,fp16,128,589.37,x\n"
                                         "RTX 3090,1,bert_large_squad,transformer,fp16,32,60,x\n"
                                         "RTX 3090,1,bert_large_squad,transformer,fp16,32,62,x\n"
                                         "RTX 4090,1,bert_large_squad,transformer,fp16,32,95,x\n");
    const auto doc = cli.json({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    const auto& runs = doc.at("reference_runs");
    ASSERT_EQ(runs.size(), 3u) << runs.dump();
    EXPECT_EQ(runs.at(0).at("workload"), "bert_large_squad");
    EXPECT_EQ(runs.at(0).at("line"), 9);
    EXPECT_EQ(runs.at(0).at("runs"), 2);
    EXPECT_TRUE(runs.at(0).at("other_per_gpu_batches").empty());
    EXPECT_EQ(runs.at(1).at("workload"), "resnet50");
    EXPECT_EQ(runs.at(1).at("reference"), "RTX 3090");
    EXPECT_EQ(runs.at(1).at("line"), 2);
    EXPECT_EQ(runs.at(1).at("per_gpu_batch"), 64.0);
    EXPECT_EQ(runs.at(1).at("runs"), 2); // the two-GPU run is another setup
    EXPECT_EQ(runs.at(1).at("other_per_gpu_batches"), nlohmann::json::array({256.0}));
    // ResNet-50's profile knows the batch it was fitted at (Lambda 2020-21, about 426 per GPU);
    // VGG16, known only as a CNN, takes the reference run's.
    EXPECT_NEAR(runs.at(1).at("typical_per_gpu_batch").get<double>(), 426.4, 0.1);
    EXPECT_EQ(runs.at(2).at("workload"), "vgg16");
    EXPECT_TRUE(runs.at(2).at("typical_per_gpu_batch").is_null());
    // The run at 256 is measured against the one at 64 and predicted with the batch gain from it.
    const auto& rows = doc.at("rows");
    EXPECT_NEAR(rows.at(2).at("measured_relative").get<double>(), 1181.90 / 1026.83, 1e-9);
    EXPECT_GT(rows.at(2).at("predicted_relative").get<double>(), 1.1);

    const auto text = cli.run({"eval-model", "--benchmarks", f, "--reference", "RTX 3090"});
    EXPECT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("resnet50 fp16: RTX 3090 has 2 runs; line 2 is the reference (64 per GPU; the others: "
                            "256); each run is predicted at its batch relative to 426 per GPU, the batch resnet50's "
                            "profile was fitted at"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("vgg16 fp16: RTX 3090 has 2 runs; line 6 is the reference, and its batch (64 per GPU) is "
                            "taken as the typical one (the others: 256 per GPU)"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("bert_large_squad fp16: RTX 3090 has 2 runs; line 9 is the reference\n"), std::string::npos)
        << text.out;
}

} // namespace
} // namespace advisor::testing
