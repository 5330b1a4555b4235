// 2:4 structured sparsity (seed, "Sparse Network Training"): the sparse tensor cores multiply
// such weights at twice the dense rate, and nothing else in the step gets faster.
#include "catalog/catalog.h"
#include "perf/model.h"
#include "perf_test_support.h"

#include <gtest/gtest.h>

#include <string>

namespace advisor::perf {
namespace {

double sparseOverDense(const PerfModel& m, const char* gpu, Metric metric, int gpus = 1) {
    PerfQuery q;
    q.metric = metric;
    q.gpus = gpus;
    const double dense = m.throughput(cat().require(gpu), q);
    q.sparsity24 = true;
    return m.throughput(cat().require(gpu), q) / dense;
}

TEST(Sparsity, AllMatmulWorkRunsTwiceAsFast) {
    ModelConstants c = ModelConstants::builtin();
    c.shares[static_cast<size_t>(WorkloadClass::Transformer)] = {1.0, 0.0, 0.0, 0.0, 0.0};
    const PerfModel matmulsOnly(cat(), c);
    for (const auto metric : {Metric::Int8Inference, Metric::Fp16Training, Metric::Fp32Training}) {
        EXPECT_NEAR(sparseOverDense(matmulsOnly, "A100 80GB SXM4", metric), 2.0, 1e-9) << toString(metric);
    }
    EXPECT_DOUBLE_EQ(sparseOverDense(matmulsOnly, "V100 SXM2 32GB", Metric::Fp16Training), 1.0);
}

TEST(Sparsity, OnlyTheMatmulShareOfTheStepHalves) {
    // Amdahl: with matmuls a share c of the dense time, the step takes 1 - c/2 of it.
    for (const char* gpu : {"A100 80GB SXM4", "RTX 4090", "H100 PCIe"}) {
        for (const auto metric : {Metric::Int8Inference, Metric::Fp16Training}) {
            PerfQuery q;
            q.metric = metric;
            const double share = model().explain(cat().require(gpu), q).computeShare;
            const double gain = sparseOverDense(model(), gpu, metric);
            EXPECT_NEAR(gain, 1.0 / (1.0 - share / 2.0), 1e-9) << gpu << " " << toString(metric);
            EXPECT_GT(gain, 1.001) << gpu << " " << toString(metric);
            EXPECT_LT(gain, 2.0) << gpu << " " << toString(metric);
            q.sparsity24 = true;
            const Prediction sparse = model().explain(cat().require(gpu), q);
            const Factor* f = factorNamed(sparse, "2:4 sparsity");
            ASSERT_NE(f, nullptr) << gpu;
            EXPECT_NEAR(f->effect, gain, 1e-9) << gpu;
        }
    }
    // More GPUs: the all-reduce does not shrink, so eight sparse A100s gain less than one.
    EXPECT_LT(sparseOverDense(model(), "A100 40GB PCIe", Metric::Fp16Training, 8),
              sparseOverDense(model(), "A100 40GB PCIe", Metric::Fp16Training, 1));
}

TEST(Sparsity, WhereItCannotApplyTheDenseSpeedIsShownAndSaid) {
    const auto noteWith = [](const char* gpu, Metric metric, const std::string& words) {
        PerfQuery q;
        q.metric = metric;
        q.sparsity24 = true;
        const Prediction p = model().explain(cat().require(gpu), q);
        EXPECT_EQ(factorNamed(p, "2:4 sparsity"), nullptr) << gpu;
        for (const auto& n : p.notes) {
            if (n.find(words) != std::string::npos) {
                return true;
            }
        }
        return false;
    };
    EXPECT_DOUBLE_EQ(sparseOverDense(model(), "V100 SXM2 32GB", Metric::Fp16Training), 1.0);
    EXPECT_TRUE(noteWith("V100 SXM2 32GB", Metric::Fp16Training, "has no sparse tensor cores"));
    EXPECT_DOUBLE_EQ(sparseOverDense(model(), "A100 80GB SXM4", Metric::LlmPrefill), 1.0);
    EXPECT_TRUE(noteWith("A100 80GB SXM4", Metric::LlmPrefill, "runs dense weights"));
    // Off by default: a query that does not ask says nothing about it.
    PerfQuery q;
    for (const auto& n : model().explain(cat().require("V100 SXM2 32GB"), q).notes) {
        EXPECT_EQ(n.find("sparsity"), std::string::npos) << n;
    }
}

} // namespace
} // namespace advisor::perf
