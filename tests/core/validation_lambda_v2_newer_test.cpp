// Lambda's v2 PyTorch training runs on an H200 (August 2024), a GH200 (October 2024) and a B200
// (December 2025), held out (experiments round 72): the model's figures were written down before
// the logs were read. The B200's 2- and 4-GPU runs were read in round 73, the H200's 8-GPU ones
// in round 74.
#include "catalog/catalog.h"
#include "eval/benchmarks.h"
#include "eval/evaluate.h"
#include "validation_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace advisor::eval {
namespace {

const std::string kFile = "lambda-pytorch-train-v2-b200-h200.csv";

TEST(Validation, LambdasNewerDataCentreCardsTrainWithinTheDocumentedError) {
    // docs/performance-model.md: 9.3% / 21.2% relative to the H100 SXM5 (the bandwidth ratio
    // 27.1% / 42.3%); the Hopper cards (H200, GH200) 5.3% / 21.7%, the B200 15.0% / 19.9%.
    const auto ev = evaluateValidation(kFile, "H100 SXM5");
    EXPECT_TRUE(ev.unresolved.empty());
    EXPECT_EQ(ev.singleGpu.rows, 27u);
    EXPECT_NEAR(ev.singleGpu.medianAbsErrorPct, 9.3, 0.05);
    EXPECT_NEAR(ev.singleGpu.p90AbsErrorPct, 21.2, 0.05);
    EXPECT_NEAR(ev.singleGpuBandwidthBaseline.medianAbsErrorPct, 27.1, 0.05);
    EXPECT_NEAR(ev.singleGpuBandwidthBaseline.p90AbsErrorPct, 42.3, 0.05);
    EXPECT_EQ(evaluatedRowsOf(ev, "B200").size(), 36u);     // 10 single-GPU rows, 10 of 2 GPUs, 9 of 4, 7 of 8
    EXPECT_EQ(evaluatedRowsOf(ev, "H200 SXM").size(), 18u); // 10 single-GPU rows and 8 of 8 GPUs
    EXPECT_EQ(evaluatedRowsOf(ev, "GH200").size(), 7u);
}

TEST(Validation, TheB200sMixedPrecisionCnnsRanNoFasterThanItsTf32Ones) {
    // The B200's ResNet-50 and SSD in mixed precision ran at its TF32 speed (3,077 against 2,967
    // images/s; 1,025 against 1,043) where the H100 SXM5 gains 1.47x, so its fp16 CNN rows are the
    // model's optimistic ones (11-17% fast) and its TF32 rows its pessimistic ones.
    std::map<std::string, double> b200;
    for (const auto& r : validationRows(kFile)) {
        if (r.gpu == "B200" && r.numGpus == 1) {
            b200[r.workload + "/" + perf::toString(r.precision)] = r.throughput;
        }
    }
    for (const std::string net : {"resnet50", "ssd"}) {
        EXPECT_LT(b200[net + "/fp16"] / b200[net + "/fp32"], 1.05) << net;
    }
    EXPECT_GT(b200["bert_large_squad/fp16"] / b200["bert_large_squad/fp32"], 1.8); // BERT still gains
    const auto ev = evaluateValidation(kFile, "H100 SXM5");
    for (const auto* r : evaluatedRowsOf(ev, "B200")) {
        if (r->row.workloadClass == "cnn" && r->row.numGpus == 1) {
            const bool fp16 = r->row.precision == perf::Precision::Fp16;
            EXPECT_GT(r->errorPct, fp16 ? 10.0 : -25.0) << r->row.workload;
            EXPECT_LT(r->errorPct, fp16 ? 20.0 : -10.0) << r->row.workload;
        }
    }
}

TEST(Validation, EightB200sOnNvlinkScaleAsTheModelSaysWithinAFewPercent) {
    // The B200's 8-GPU runs over its single-GPU ones, as measured and as predicted: ResNet-50, SSD
    // and GNMT 7.80-8.16x against the model's 7.57-7.73x, each 1-7% under; BERT-large in TF32 (read
    // in round 74, the one BERT run of 8 that reached the script's step cap) 7.52x against 7.70x,
    // 2% over (docs/performance-model.md). The other BERT runs stopped short of the cap.
    int eight = 0;
    for (const auto& s : scalingOf(evaluateValidation(kFile, "H100 SXM5"), "B200")) {
        if (s.gpus != 8) {
            continue;
        }
        const double error = s.predicted / s.measured - 1;
        EXPECT_GT(s.measured, 7.5) << s.run;
        EXPECT_LT(std::abs(error), 0.07) << s.run;
        if (s.run.starts_with("bert_large")) {
            EXPECT_GT(error, 0.02) << s.run;
        } else {
            EXPECT_LT(error, -0.005) << s.run;
        }
        ++eight;
    }
    EXPECT_EQ(eight, 7);
}

TEST(Validation, TwoAndFourB200sScaleWithinAFewPercentOfTheModel) {
    // Round 73: the 2- and 4-GPU logs of the same machine, read after the model's 1.96-1.98x and
    // 3.85-3.91x were written down: 1.96-1.99x and 3.77-3.99x, every row within 3.5% (ResNet-50,
    // SSD and GNMT a little under, BERT at 4 GPUs a little over); over all 26 multi-GPU rows the
    // scaling error is 1.2% median, 3.4% p90. BERT-base's 4-GPU run in mixed precision (6.2x one
    // GPU) is left out of the file, as its 8-GPU runs are: each stopped short of the script's
    // 100-step cap (29 steps an epoch, two epochs), which inflates training_sequences_per_second.
    std::vector<double> errors;
    int twoOrFour = 0;
    for (const auto& s : scalingOf(evaluateValidation(kFile, "H100 SXM5"), "B200")) {
        const double error = 100 * (s.predicted / s.measured - 1);
        errors.push_back(std::abs(error));
        if (s.gpus == 8) {
            continue;
        }
        EXPECT_GT(s.measured, s.gpus * 0.94) << s.gpus << " " << s.run;
        EXPECT_LT(s.measured, s.gpus * 1.0) << s.gpus << " " << s.run;
        EXPECT_LT(std::abs(error), 3.5) << s.gpus << " " << s.run;
        ++twoOrFour;
    }
    EXPECT_EQ(twoOrFour, 19);
    ASSERT_EQ(errors.size(), 26u);
    std::sort(errors.begin(), errors.end());
    EXPECT_NEAR((errors[12] + errors[13]) / 2, 1.2, 0.05);
}

TEST(Validation, EightH200sOnNvlinkScaleAsTheModelSaysButTf32Gnmt) {
    // Round 74: the H200 machine's 8-GPU runs of the same day, read after the model's 7.56-7.72x
    // were written down: 7.49-7.95x on ResNet-50, SSD, BERT-large and GNMT in mixed precision and
    // ResNet-50, SSD and BERT-large in TF32, each within 4% (ResNet-50 and GNMT under, SSD and BERT
    // over); GNMT in TF32 ran 8.28x one GPU, above linear, and the model's 7.59x is 8% under.
    // BERT-base's 8-GPU runs (19x and 9.5x one GPU) stopped short of the 100-step cap: left out.
    int rows = 0;
    for (const auto& s : scalingOf(evaluateValidation(kFile, "H100 SXM5"), "H200 SXM")) {
        ASSERT_EQ(s.gpus, 8);
        const double error = 100 * (s.predicted / s.measured - 1);
        EXPECT_GT(s.predicted, 7.5) << s.run;
        EXPECT_LT(s.predicted, 7.75) << s.run;
        if (s.run == "gnmt/fp32") {
            EXPECT_GT(s.measured, 8.2);
            EXPECT_NEAR(error, -8.4, 0.05);
        } else {
            EXPECT_LT(std::abs(error), 4.0) << s.run;
        }
        ++rows;
    }
    EXPECT_EQ(rows, 8);
}

} // namespace
} // namespace advisor::eval
