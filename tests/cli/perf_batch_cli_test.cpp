// `gpu-advisor perf --batch` for a calibration network: the batch it stands for, through the real binary.
#include "cli_runner.h"

#include <gtest/gtest.h>

namespace advisor::testing {
namespace {

TEST(PerfBatchCli, ACalibrationNetworksTrainingSaysWhichBatchItsMultiplierIsOf) {
    Cli cli;
    // ResNet-50's profile was fitted on Lambda 2020-21's runs at about 426 images per GPU in fp16
    // and 220 in fp32 (geometric means); --batch 0.15 is then about tf_cnn_benchmarks' 64.
    const auto doc = cli.json({"perf", "--gpu", "RTX 3090", "--workload", "resnet50", "--batch", "0.15"});
    const auto& predictions = doc.at("predictions");
    ASSERT_EQ(predictions.size(), 4u);
    for (const auto& p : predictions) {
        const std::string metric = p.at("metric");
        if (metric == "fp16-training") {
            EXPECT_NEAR(p.at("typical_per_gpu_batch").get<double>(), 426.4, 0.1);
        } else if (metric == "fp32-training") {
            EXPECT_NEAR(p.at("typical_per_gpu_batch").get<double>(), 220.1, 0.1);
        } else {
            EXPECT_TRUE(p.at("typical_per_gpu_batch").is_null()) << metric; // inference has no fitted batch
        }
    }
    // A network known only by its class has none: --batch is relative to an unstated typical batch.
    const auto cnn = cli.json({"perf", "--gpu", "RTX 3090", "--workload", "cnn", "--metric", "fp16-training"});
    EXPECT_TRUE(cnn.at("predictions").at(0).at("typical_per_gpu_batch").is_null());

    const auto text = cli.run(
        {"perf", "--gpu", "RTX 3090", "--workload", "resnet50", "--metric", "fp16-training", "--batch", "0.15"});
    EXPECT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(
        text.out.find("  batch: 64 per GPU (--batch 0.15 of the 426 per GPU that resnet50's profile was fitted at)\n"),
        std::string::npos)
        << text.out;
    const auto cnnText = cli.run({"perf", "--gpu", "RTX 3090", "--workload", "cnn", "--metric", "fp16-training"});
    EXPECT_EQ(cnnText.out.find("  batch: "), std::string::npos) << cnnText.out;
}

} // namespace
} // namespace advisor::testing
