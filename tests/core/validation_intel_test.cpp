// The model on llama.cpp runs of Intel's Battlemage cards, which the calibration never saw: the
// Arc Pro B70 (BMG-G31, 32 Xe2 cores) and the Arc B580 (BMG-G21, 20). The B70's entry and the
// model's figures for it were committed before its runs were read (experiments, round 48); the
// B580's one run was read while looking for the card's specifications.
#include "catalog/catalog.h"
#include "eval/benchmarks.h"
#include "eval/evaluate.h"
#include "validation_support.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <map>
#include <string>

namespace advisor::eval {
namespace {

std::map<std::string, BenchmarkRow> battlemageRows() {
    return validationRowsBy("llamacpp-intel-battlemage-2026.csv",
                            [](const BenchmarkRow& r) { return r.gpu + " " + r.workload; });
}

TEST(Validation, LlamaCppOnBattlemageTokenGenerationFollowsTheBytesItsXeCoresKeepInFlight) {
    // Xe2 cores are counted as SMs (128 lanes each): the B70's 32 keep 523 of its 608 GB/s in
    // flight, the B580's 20 313 of 456. PMZFX's SYCL runs of the B70 (8B, 14.7B, 23.6B and a 70B
    // split over two cards) come out 4-19% below the model; the B580's IPEX-LLM run 12% above it.
    const auto rows = battlemageRows();
    ASSERT_EQ(rows.size(), 10u);
    for (const char* b70 : {"Arc Pro B70 llama-3.1-8b-q4km-tg128", "Arc Pro B70 phi-4-14.7b-q4km-tg128",
                            "Arc Pro B70 mistral-small-3.2-23.6b-q4km-tg128", "Arc Pro B70 llama-3.1-70b-q4km-tg128"}) {
        const double r = predictedOverMeasured(Catalog::builtin(), rows.at(b70));
        EXPECT_GT(r, 1.0) << b70;
        EXPECT_LT(r, 1.22) << b70;
    }
    const double b580 = predictedOverMeasured(Catalog::builtin(), rows.at("Arc B580 qwen2.5-7b-q4km-tg128"));
    EXPECT_GT(b580, 0.85);
    EXPECT_LT(b580, 0.95);
}

TEST(Validation, LlamaCppOnBattlemagePromptProcessingReachesHalfWhatTheXmxEnginesAllow) {
    // The prompt is bound by the XMX rate (half of Intel's INT8 TOPS). llama.cpp's SYCL kernels
    // reach about a fifth of it on the B70 (39 TFLOPS for Llama 3.1 8B) and a third on the B580,
    // so the model is 64-104% above every run: a known miss, said with every such prediction.
    const auto rows = battlemageRows();
    for (const char* b70 : {"Arc Pro B70 llama-3.1-8b-q4km-pp512", "Arc Pro B70 phi-4-14.7b-q4km-pp512",
                            "Arc Pro B70 mistral-small-3.2-23.6b-q4km-pp512", "Arc Pro B70 llama-3.1-70b-q4km-pp512"}) {
        const double r = predictedOverMeasured(Catalog::builtin(), rows.at(b70));
        EXPECT_GT(r, 1.6) << b70;
        EXPECT_LT(r, 2.15) << b70;
    }
    const BenchmarkRow& b580Prompt = rows.at("Arc B580 qwen2.5-7b-q4km-pp512");
    EXPECT_GT(predictedOverMeasured(Catalog::builtin(), b580Prompt), 1.5);
    EXPECT_LT(predictedOverMeasured(Catalog::builtin(), b580Prompt), 1.75);

    // Before the catalog held the B580's matrix rate the model gave its XMX engines packed FP16
    // with the no-tensor-core penalty: a prompt at a fifth of the run, a miss seven times larger.
    // Without its own figures it now borrows the Arc Pro B60's (the same chip), scaled by FP32.
    const auto withoutXmxRate = [](std::initializer_list<const char*> ids) {
        Catalog c;
        for (Gpu g : Catalog::builtin().gpus()) {
            for (const char* id : ids) {
                if (g.id == id) {
                    EXPECT_TRUE(g.tensor.int8.has_value()) << id;
                    g.tensor = {};
                }
            }
            c.add(std::move(g));
        }
        return c;
    };
    EXPECT_LT(predictedOverMeasured(withoutXmxRate({"arc-b580", "arc-pro-b60"}), b580Prompt), 0.25);
    const double borrowed = predictedOverMeasured(withoutXmxRate({"arc-b580"}), b580Prompt);
    EXPECT_GT(borrowed, 1.45);
    EXPECT_LT(borrowed, predictedOverMeasured(Catalog::builtin(), b580Prompt));
}

TEST(Validation, BattlemagePredictionsCarryWhatTheRunsSaid) {
    // The entries' model_checks travel with every LLM prediction of the two cards, not with
    // the Arc Pro B60's (no run of it on a dense model was found).
    const perf::PerfModel model(Catalog::builtin());
    perf::PerfQuery q;
    q.metric = perf::Metric::LlmPrefill;
    const auto noteOf = [&](const char* gpu) {
        std::string all;
        for (const auto& n : model.explain(Catalog::builtin().require(gpu), q).notes) {
            all += n + "\n";
        }
        return all;
    };
    EXPECT_NE(noteOf("Arc Pro B70").find("70.1-104.4% above its prompt processing"), std::string::npos);
    EXPECT_NE(noteOf("Arc B580").find("63.8% above its prompt processing"), std::string::npos);
    EXPECT_EQ(noteOf("Arc Pro B60").find("measured on this GPU"), std::string::npos);
}

} // namespace
} // namespace advisor::eval
