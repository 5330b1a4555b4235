// The model on llama.cpp's token generation of December 2023 (tests/fixtures/validation/llamacpp-llama2-2023.csv:
// LLaMA 2 7B and 70B on nine single cards, XiongjieDai's README table), never fitted. It was written to test a fixed
// time per layer instead of per token (docs/performance-model-experiments.md, round 60, not shipped); these tests
// hold what it showed.
#include "catalog/catalog.h"
#include "eval/evaluate.h"
#include "validation_support.h"

#include <gtest/gtest.h>
#include <map>
#include <string>

namespace advisor::eval {
namespace {

// Tokens/s, model over measured, by "GPU|workload".
std::map<std::string, double> modelOverMeasured() {
    std::map<std::string, double> out;
    for (const auto& r : validationRows("llamacpp-llama2-2023.csv")) {
        out[r.gpu + "|" + r.workload] = predictedOverMeasured(Catalog::builtin(), r);
    }
    return out;
}

TEST(Validation, LlamaCppGenerationOfLlama2OnNineCardsStaysWithinTheDocumentedError) {
    // Docs: 9.5% / 30.4% (median / p90) relative to the RTX 3090, the bandwidth rule 13.1% / 52.7%.
    const auto ev = evaluateValidation("llamacpp-llama2-2023.csv", "RTX 3090");
    EXPECT_TRUE(ev.unresolved.empty());
    EXPECT_EQ(ev.singleGpu.rows, 19u);
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, 10.5);
    EXPECT_LT(ev.singleGpu.p90AbsErrorPct, 32.0);
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, ev.singleGpuBandwidthBaseline.medianAbsErrorPct);
    EXPECT_LT(ev.singleGpu.p90AbsErrorPct, ev.singleGpuBandwidthBaseline.p90AbsErrorPct);
}

TEST(Validation, LlamaCppGenerationOfLlama2OnGddrCardsInTokensPerSecond) {
    // A build five months older than the calibration's: the GeForce and Ada workstation cards' 7B rows
    // within 14% of their tokens/s (0.96-1.14x), with the calibration's 2.2 ms per token.
    const auto ratio = modelOverMeasured();
    for (const char* gpu :
         {"RTX 4080", "RTX 4000 Ada", "RTX 3090", "RTX 4090", "RTX 5000 Ada", "RTX A6000", "RTX 6000 Ada"}) {
        for (const char* workload : {"llama-2-7b-q4_0-tg1024", "llama-2-7b-f16-tg1024"}) {
            const double r = ratio.at(std::string(gpu) + "|" + workload);
            EXPECT_GT(r, 0.93) << gpu << " " << workload;
            EXPECT_LT(r, 1.15) << gpu << " " << workload;
        }
    }
}

TEST(Validation, LlamaCppGenerationOfLlama2OnHbmCardsPinnedMisses) {
    // The HBM cards' streaming depends on the matrices and the weights' format in a way the SMs' cap on
    // a batch-1 kernel's bytes in flight (one figure, fitted on 8B Q4_K_M and F16 runs) does not hold:
    // that build streamed their F16 7B and Q4_0 70B weights faster than the model says, and the H100's
    // Q4_0 7B slower (133.8 tokens/s, level with the A100's 136.2 on 1.05x its bandwidth).
    const auto ratio = modelOverMeasured();
    EXPECT_LT(ratio.at("A100 80GB PCIe|llama-2-7b-f16-tg1024"), 0.82);   // 0.76
    EXPECT_LT(ratio.at("H100 PCIe|llama-2-7b-f16-tg1024"), 0.90);        // 0.85
    EXPECT_LT(ratio.at("A100 80GB PCIe|llama-2-70b-q4_0-tg1024"), 0.82); // 0.78
    EXPECT_GT(ratio.at("H100 PCIe|llama-2-7b-q4_0-tg1024"), 1.15);       // 1.23
}

TEST(Validation, ASeventyBOverASevenBIsHigherOnHbmCardsThanTheModelSays) {
    // Round 60's test of a fixed time per layer: the 70B (80 layers) over the 7B (32) in Q4_0 on one card.
    // Measured 0.136 and 0.134 on the RTX A6000 and RTX 6000 Ada, 0.188 and 0.193 on the A100 and H100:
    // 1.4x higher on HBM. The model's four ratios (0.138, 0.146, 0.145, 0.156) spread far less, and a
    // fixed time per layer lowers all four, so it cannot close the HBM cards' gap (it came closer on one
    // card of the four).
    const auto rows =
        validationRowsBy("llamacpp-llama2-2023.csv", [](const BenchmarkRow& r) { return r.gpu + "|" + r.workload; });
    const auto ratio = modelOverMeasured();
    const auto measured70Over7 = [&](const std::string& gpu) {
        return rows.at(gpu + "|llama-2-70b-q4_0-tg1024").throughput /
               rows.at(gpu + "|llama-2-7b-q4_0-tg1024").throughput;
    };
    const auto model70Over7 = [&](const std::string& gpu) {
        return measured70Over7(gpu) * ratio.at(gpu + "|llama-2-70b-q4_0-tg1024") /
               ratio.at(gpu + "|llama-2-7b-q4_0-tg1024");
    };
    const double measuredGap = (measured70Over7("A100 80GB PCIe") + measured70Over7("H100 PCIe")) /
                               (measured70Over7("RTX A6000") + measured70Over7("RTX 6000 Ada"));
    const double modelGap = (model70Over7("A100 80GB PCIe") + model70Over7("H100 PCIe")) /
                            (model70Over7("RTX A6000") + model70Over7("RTX 6000 Ada"));
    EXPECT_GT(measuredGap, 1.35);
    EXPECT_LT(modelGap, 1.10);
}

} // namespace
} // namespace advisor::eval
