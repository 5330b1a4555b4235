// The model on one server of RTX 3090s (1-8) and RTX 4090s (1-4) running tf_cnn_benchmarks
// (tests/fixtures/validation/tf-cnn-benchmarks-geforce-2021-2023.csv): data-parallel scaling over PCIe
// on GeForce cards at four per-GPU batches, read after the model was settled and never fitted.
// docs/performance-model.md, "An external check of data-parallel scaling on PCIe (tf_cnn_benchmarks)",
// gives the figures these tests hold.
#include "eval/evaluate.h"
#include "validation_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace advisor::eval {
namespace {

// The file's rows at one per-GPU batch, each relative to the RTX 3090's single-GPU run at that
// batch. ResNet-50 is predicted at that batch relative to the one its profile was fitted at
// (about 426 images per GPU in fp16); Inception-v3 and VGG16, known only as CNNs, at the
// reference row's batch taken as the typical one.
Evaluation evaluateAtPerGpuBatch(double perGpuBatch,
                                 const perf::ModelConstants& constants = perf::ModelConstants::builtin()) {
    std::vector<BenchmarkRow> rows;
    for (const auto& r : validationRows("tf-cnn-benchmarks-geforce-2021-2023.csv")) {
        if (r.perGpuBatch() == perGpuBatch) {
            rows.push_back(r);
        }
    }
    const perf::PerfModel model(Catalog::builtin(), constants);
    auto ev = evaluate(rows, Catalog::builtin(), model, "RTX 3090");
    EXPECT_TRUE(ev.unresolved.empty());
    return ev;
}

const EvaluatedRow& rowAt(const Evaluation& ev, const std::string& gpu, const std::string& workload, int gpus) {
    for (const auto& r : ev.rows) {
        if (r.evaluated && r.row.gpu == gpu && r.row.workload == workload && r.row.numGpus == gpus) {
            return r;
        }
    }
    throw std::runtime_error("no evaluated row " + gpu + " " + workload + " x" + std::to_string(gpus));
}

// Error of the predicted scaling (n GPUs over one of the same card) against the measured, in percent.
double scalingErrorPct(const Evaluation& ev, const std::string& gpu, const std::string& workload, int gpus) {
    const auto& one = rowAt(ev, gpu, workload, 1);
    const auto& many = rowAt(ev, gpu, workload, gpus);
    const double predicted = many.predictedRelative / one.predictedRelative;
    const double measured = many.measuredRelative / one.measuredRelative;
    return (predicted / measured - 1.0) * 100.0;
}

TEST(Validation, TfCnnBenchmarksScalingAtLargePerGpuBatches) {
    // At 256 and 512 images per GPU the step is long enough for the all-reduce: ResNet-50 on 2 and 4
    // cards of either kind within 3% of its measured scaling (docs: -2.4% to +1.4%), eight RTX 3090s
    // at 256 12% optimistic (6.23x measured, 6.99x predicted); Inception-v3 within 5% on 2-8 cards.
    for (const double batch : {256.0, 512.0}) {
        const auto ev = evaluateAtPerGpuBatch(batch);
        for (const int n : {2, 4}) {
            EXPECT_LT(std::fabs(scalingErrorPct(ev, "RTX 3090", "resnet50", n)), 3.0) << batch << " x" << n;
            EXPECT_LT(std::fabs(scalingErrorPct(ev, "RTX 4090", "resnet50", n)), 3.0) << batch << " x" << n;
        }
        EXPECT_LT(std::fabs(scalingErrorPct(ev, "RTX 3090", "resnet50", 8)), 13.0) << batch;
    }
    const auto ev256 = evaluateAtPerGpuBatch(256);
    for (const int n : {2, 4, 8}) {
        EXPECT_LT(std::fabs(scalingErrorPct(ev256, "RTX 3090", "inception3", n)), 5.0) << n;
    }
}

TEST(Validation, TfCnnBenchmarksSmallBatchesScaleWorseAsTheTypicalBatchSays) {
    // At 64 images per GPU a step is short and the all-reduce weighs more. ResNet-50's profile
    // knows its fitted batch (about 426), so the model charges the small batch: four RTX 3090s
    // measured 2.73x one, predicted 3.03x (+11%); four RTX 4090s +12%; eight RTX 3090s 3.93x
    // measured, still 43% optimistic. Without the typical batch (the reference row's 64 taken as
    // typical, as for every network before) the model gave 3.72x, 37% optimistic.
    const auto ev64 = evaluateAtPerGpuBatch(64);
    EXPECT_LT(std::fabs(scalingErrorPct(ev64, "RTX 3090", "resnet50", 2)), 2.0);
    EXPECT_LT(scalingErrorPct(ev64, "RTX 3090", "resnet50", 4), 15.0);
    EXPECT_LT(scalingErrorPct(ev64, "RTX 4090", "resnet50", 4), 15.0);
    EXPECT_GT(scalingErrorPct(ev64, "RTX 3090", "resnet50", 8), 30.0);
    EXPECT_LT(scalingErrorPct(ev64, "RTX 3090", "resnet50", 8), 50.0);

    perf::ModelConstants withoutTypical = perf::ModelConstants::builtin();
    withoutTypical.workloadProfiles.at("resnet50").typicalPerGpuBatch.clear();
    const auto atTheReferencesBatch = evaluateAtPerGpuBatch(64, withoutTypical);
    EXPECT_GT(scalingErrorPct(atTheReferencesBatch, "RTX 3090", "resnet50", 4), 30.0);
    EXPECT_GT(scalingErrorPct(atTheReferencesBatch, "RTX 3090", "resnet50", 8), 80.0);

    // Inception-v3, known only as a CNN, is still taken at the file's batch: 18% and 45% optimistic
    // on four and eight RTX 3090s, 39% on four RTX 4090s.
    EXPECT_GT(scalingErrorPct(ev64, "RTX 3090", "inception3", 8), 40.0);
    EXPECT_GT(scalingErrorPct(ev64, "RTX 4090", "inception3", 4), 30.0);
}

TEST(Validation, TfCnnBenchmarksVgg16ScalesFarWorseThanTheModelKnows) {
    // A documented miss, pinned so that a change to it is noticed: VGG16 (138M parameters, known to
    // the model only as a CNN) scales far worse than predicted beyond two cards, 3.72x on eight RTX
    // 3090s at 256 per GPU where the model gives 7.27x. The posts do not say whether tf_cnn_benchmarks
    // gathered gradients on one device (its default parameter server) or in a ring.
    const auto ev256 = evaluateAtPerGpuBatch(256);
    EXPECT_GT(scalingErrorPct(ev256, "RTX 3090", "vgg16", 4), 20.0);
    EXPECT_GT(scalingErrorPct(ev256, "RTX 3090", "vgg16", 8), 80.0);
}

TEST(Validation, TfCnnBenchmarksBatchGainDoesNotLevelOff) {
    // One RTX 3090 at 64 to 512 images per GPU (the whole file, relative to its first run at 64):
    // ResNet-50 gained 9.7%, 4.9% and 2.0% per doubling, its profile 10.6% each, so the model is
    // close at 128 and 15% high at 512; VGG16 (the class's 13.6% per doubling) 40% high at 512,
    // where the measured throughput no longer grows. A documented miss: the seed's gain per
    // doubling has no ceiling once the GPU is full.
    const perf::PerfModel model(Catalog::builtin());
    const auto ev =
        evaluate(validationRows("tf-cnn-benchmarks-geforce-2021-2023.csv"), Catalog::builtin(), model, "RTX 3090");
    const auto singleAt = [&](const std::string& workload, double perGpuBatch) -> const EvaluatedRow& {
        for (const auto& r : ev.rows) {
            if (r.evaluated && r.row.gpu == "RTX 3090" && r.row.numGpus == 1 && r.row.workload == workload &&
                r.row.perGpuBatch() == perGpuBatch) {
                return r;
            }
        }
        throw std::runtime_error("no single RTX 3090 row of " + workload);
    };
    EXPECT_LT(std::fabs(singleAt("resnet50", 128).errorPct), 2.0);
    EXPECT_GT(singleAt("resnet50", 512).errorPct, 10.0);
    EXPECT_GT(singleAt("vgg16", 512).errorPct, 30.0);
}

TEST(Validation, TfCnnBenchmarksRtx4090AgainstRtx3090IsAFloor) {
    // One card each, two TensorFlow containers two years apart (20.12 for the RTX 3090, 23.02 for
    // the RTX 4090): the RTX 4090 measured 1.46-1.50x at 256 and 512 per GPU, 1.64x at 64; the model
    // gives 1.35x, slow as on the other newer cards' CNN runs (the floor note of perf/model.h).
    for (const double batch : {64.0, 256.0, 512.0}) {
        const auto ev = evaluateAtPerGpuBatch(batch);
        const double error = rowAt(ev, "RTX 4090", "resnet50", 1).errorPct;
        EXPECT_LT(error, -5.0) << batch;
        EXPECT_GT(error, -20.0) << batch;
    }
}

} // namespace
} // namespace advisor::eval
