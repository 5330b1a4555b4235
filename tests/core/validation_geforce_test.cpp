// The model on one person's runs of five GeForce generations (tests/fixtures/validation/timm-train-geforce-*.csv,
// timm-inference-geforce-*.csv, timm-results-inference-pt291*.csv, ollama-decode-geforce-2025.csv): timm's training
// and inference benchmark in 2022 and 2025 (and timm's own 2025 inference results) and Ollama's token generation,
// each read after the model was settled and never fitted.
// docs/performance-model.md, "An external check on five GeForce generations", gives the figures these tests hold.
#include "eval/evaluate.h"
#include "eval/stats.h"
#include "validation_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace advisor::eval {
namespace {

const EvaluatedRow& rowOf(const Evaluation& ev, const std::string& gpu, const std::string& workload,
                          const std::string& precision) {
    for (const auto& r : ev.rows) {
        if (r.evaluated && r.row.gpu == gpu && r.row.workload == workload &&
            std::string(perf::toString(r.row.precision)) == precision) {
            return r;
        }
    }
    throw std::runtime_error("no evaluated row " + gpu + " " + workload + " " + precision);
}

// A file's single-GPU rows against the error the docs report: every GPU name resolved, the expected
// row count, median and p90 under the bounds, and the median under the bandwidth rule's divided by
// `beatsRuleBy` (1: merely better).
Evaluation evaluateWithin(const std::string& file, const std::string& reference, size_t rows, double medianPct,
                          double p90Pct, double beatsRuleBy) {
    auto ev = evaluateValidation(file, reference);
    EXPECT_TRUE(ev.unresolved.empty()) << file;
    EXPECT_EQ(ev.singleGpu.rows, rows) << file;
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, medianPct) << file;
    EXPECT_LT(ev.singleGpu.p90AbsErrorPct, p90Pct) << file;
    EXPECT_LT(ev.singleGpu.medianAbsErrorPct, ev.singleGpuBandwidthBaseline.medianAbsErrorPct / beatsRuleBy) << file;
    return ev;
}

TEST(Validation, TimmTrainingOnFourGeForceGenerationsOfOneRun) {
    // NikolasEnt's 2022 post: GTX 1080 Ti, RTX 2080 Ti, RTX 3090 and RTX 4090 training VGG16, ResNet-50,
    // EfficientNetV2-B0 and Swin-B in float16 and float32 (PyTorch 1.13), relative to the RTX 3090.
    // Docs: 11.8% / 41.2% (median / p90); the bandwidth rule 34.1% / 90.1%.
    const auto ev = evaluateWithin("timm-train-geforce-2022.csv", "RTX 3090", 24, 12.5, 42.0, 2);
    EXPECT_GT(ev.singleGpu.spearman, 0.85);

    // The CNNs of the cards around the reference within 15% (ResNet-50, its fitted profile, and the
    // class shares for the other two), except VGG16 on the 4090 (below).
    for (const char* gpu : {"RTX 2080 Ti", "RTX 4090"}) {
        for (const char* net : {"resnet50", "tf_efficientnetv2_b0"}) {
            for (const char* precision : {"fp16", "fp32"}) {
                EXPECT_LT(std::fabs(rowOf(ev, gpu, net, precision).errorPct), 15.0) << gpu << " " << net;
            }
        }
    }
    // Pinned misses. VGG16, all large convolutions, runs near the tensor roof, where the CNN class's
    // shares (fitted on 2020-21 runs with half their time the same on every GPU) keep the 4090 at
    // 1.33x the 3090: measured 1.65x.
    EXPECT_LT(rowOf(ev, "RTX 4090", "vgg16", "fp16").errorPct, -15.0);
    // The 4090's Swin-B in float32 ran 0.72x its own float16 run where every other tensor-core card
    // ran 0.34-0.55x, and 1.38x what the same card did in the 2025 run with TF32 allowed: the model
    // gives 1.67x the 3090, the file 3.13x.
    EXPECT_LT(rowOf(ev, "RTX 4090", "swin_base_patch4_window7_224", "fp32").errorPct, -40.0);
    // float16 on a card without tensor cores is modelled as float32 (the seed's advice): the GTX
    // 1080 Ti's VGG16 runs at 0.90x its float32 run, so it is predicted too fast.
    EXPECT_GT(rowOf(ev, "GTX 1080 Ti", "vgg16", "fp16").errorPct, 40.0);
}

TEST(Validation, TimmTrainingOnAnRtx5090AgainstTheCardsBeforeIt) {
    // NikolasEnt's 2025 post: RTX 3090, 4090 and 5090 training five timm networks (PyTorch 2.6, CUDA
    // 12.8). Docs: 14.8% / 30.7% relative to the RTX 3090 (the bandwidth rule 24.8% / 39.5%); 13.6% /
    // 26.2% relative to the RTX 4090, the 5090's rows alone 9.7% / 20.0%.
    const auto ev = evaluateWithin("timm-train-geforce-2025.csv", "RTX 3090", 20, 16.0, 32.0, 1);
    // Every CNN row of the Ada and Blackwell cards is predicted slower than measured: read the newest
    // cards' CNN figures as a floor, as Lambda's H100 SXM5 runs say too.
    size_t cnn = 0;
    for (const auto& r : ev.rows) {
        if (r.evaluated && r.row.gpu != "RTX 3090" && r.row.workloadClass == "cnn") {
            EXPECT_LT(r.errorPct, 0.0) << r.row.gpu << " " << r.row.workload;
            ++cnn;
        }
    }
    EXPECT_EQ(cnn, 12u);

    // Against the card one generation before it, the 5090 is predicted closely.
    const auto fromAda = evaluateValidation("timm-train-geforce-2025.csv", "RTX 4090");
    std::vector<double> blackwell;
    for (const auto* r : evaluatedRowsOf(fromAda, "RTX 5090")) {
        blackwell.push_back(std::fabs(r->errorPct));
    }
    ASSERT_EQ(blackwell.size(), 10u);
    EXPECT_LT(median(blackwell), 10.5);
    EXPECT_LT(percentile(blackwell, 90), 21.0);
}

TEST(Validation, SixteenBitInferenceOnFiveGeForceGenerations) {
    // The "eval" columns of the same posts in float16 (batch 256), the only measurements of the seed's
    // 16-bit inference metric here. Docs: 2022 9.4% / 36.3%, 2025 8.3% / 18.2% relative to the RTX 3090
    // (the bandwidth rule 35.3% / 75.6% and 30.5% / 39.2%).
    const auto old = evaluateWithin("timm-inference-geforce-2022.csv", "RTX 3090", 12, 10.0, 37.0, 3);
    for (const auto& r : old.rows) {
        if (!r.evaluated || r.row.gpu == "RTX 3090") {
            continue;
        }
        EXPECT_EQ(r.row.metric(), perf::Metric::Fp16Inference);
        if (r.row.gpu == "GTX 1080 Ti") {
            // Pinned miss: without tensor cores the model runs fp16 on CUDA cores at the FP32 rate and the
            // seed's 235/504 matmul penalty; PyTorch's float16 inference ran 1.03-1.29x the card's float32
            // (ResNet-50: 887 against 685).
            EXPECT_LT(r.errorPct, -20.0) << r.row.workload;
        } else {
            EXPECT_LT(std::fabs(r.errorPct), 13.0) << r.row.gpu << " " << r.row.workload;
        }
    }

    const auto now = evaluateWithin("timm-inference-geforce-2025.csv", "RTX 3090", 10, 9.0, 19.0, 3);
    // Pinned miss: inference is modelled fused (elementwise work inside the matmuls, as TensorRT runs
    // it); PyTorch's eager ResNet-50 on the 5090 ran at 1.93x the 3090, its bandwidth ratio (1.91x),
    // where the model gives 2.67x.
    EXPECT_GT(rowOf(now, "RTX 5090", "resnet50", "fp16").errorPct, 30.0);
}

TEST(Validation, SixteenBitInferenceOfTimmsOwnRunsOnTwoBlackwellCards) {
    // timm's published results for PyTorch 2.9.1 (eager AMP inference): 17 networks on an RTX 4090, an
    // RTX 5090 and an RTX PRO 6000 Blackwell Max-Q. Docs: 8.0% / 20.2% relative to the RTX 4090 (the
    // bandwidth rule 24.5% / 36.8%).
    const auto ev = evaluateWithin("timm-results-inference-pt291.csv", "RTX 4090", 34, 9.0, 21.0, 2);
    // The Max-Q, the same GB202 as the 5090 with 188 SMs at 300 W: the board-power term gives it 82% of
    // the boost clock, and it lands within 12% on every network (median 5.3%).
    std::vector<double> maxQ;
    for (const auto* r : evaluatedRowsOf(ev, "RTX PRO 6000 Blackwell Max-Q")) {
        EXPECT_LT(std::fabs(r->errorPct), 12.0) << r->row.workload;
        maxQ.push_back(std::fabs(r->errorPct));
    }
    ASSERT_EQ(maxQ.size(), 17u);
    EXPECT_LT(median(maxQ), 6.0);
    // Pinned miss: the model gives the 5090 most of its 1.78x bandwidth over the 4090 (1.61x); the runs
    // put it at 1.23-1.54x, level with the Max-Q, so every 5090 row is fast in the model (ConvNeXt ~30%).
    for (const auto* r : evaluatedRowsOf(ev, "RTX 5090")) {
        EXPECT_GT(r->errorPct, 0.0) << r->row.workload;
    }
    EXPECT_GT(rowOf(ev, "RTX 5090", "convnext_base", "fp16").errorPct, 25.0);

    // The same networks compiled (torch.compile, elementwise work fused as the model's inference
    // assumes): 8.2% / 15.6%, the 5090 at 1.30-1.69x the 4090. Fusing changes little: networks of
    // large matmuls and convolutions (VGG16, ConvNeXt-B, ViT-B) stay near the cards' compute ratio
    // (1.27x) and are fast in the model, depthwise networks (EfficientNet, MobileNet) near their
    // bandwidth ratio and within 5%. The Max-Q compiled is slow in the model on every network, by
    // at most 16% (its fused depthwise networks run level with the 5090's).
    const auto compiled = evaluateWithin("timm-results-inference-pt291-compiled.csv", "RTX 4090", 34, 9.0, 16.5, 2);
    for (const auto* r : evaluatedRowsOf(compiled, "RTX PRO 6000 Blackwell Max-Q")) {
        EXPECT_LT(r->errorPct, 0.0) << r->row.workload;
        EXPECT_GT(r->errorPct, -16.0) << r->row.workload;
    }
    for (const char* depthwise : {"efficientnet_b0", "tf_efficientnetv2_b0", "mobilenetv3_large_100"}) {
        EXPECT_LT(std::fabs(rowOf(compiled, "RTX 5090", depthwise, "fp16").errorPct), 5.0) << depthwise;
    }
    for (const char* dense : {"vgg16", "convnext_base", "vit_base_patch16_224"}) {
        EXPECT_GT(rowOf(compiled, "RTX 5090", dense, "fp16").errorPct, 10.0) << dense;
    }
}

TEST(Validation, SixteenBitInferenceOfTimmsOwnRunsOnAnRtx3090And4090) {
    // timm's published eager AMP inference for PyTorch 2.4.0 on an RTX 3090 and an RTX 4090, the same 17
    // networks. Docs: 15.6% / 27.4% (the bandwidth rule 26.3% / 37.2%). The 4090 is fast in the model
    // on most networks (the L2 term gives its 72 MB x1.41 at inference), most on the depthwise ones;
    // but for EfficientNetV2-B0 the same two cards measured 1.33x here and 1.77x in NikolasEnt's 2025
    // run: sources disagree by a third on one pair.
    const auto ev = evaluateWithin("timm-results-inference-pt240.csv", "RTX 3090", 17, 16.5, 28.5, 1);
    for (const char* depthwise : {"efficientnet_b0", "tf_efficientnetv2_b0", "mobilenetv3_large_100"}) {
        EXPECT_GT(rowOf(ev, "RTX 4090", depthwise, "fp16").errorPct, 20.0) << depthwise;
    }
    const auto other = evaluateValidation("timm-inference-geforce-2025.csv", "RTX 3090");
    const double here = rowOf(ev, "RTX 4090", "tf_efficientnetv2_b0", "fp16").measuredRelative;
    const double there = rowOf(other, "RTX 4090", "tf_efficientnetv2_b0", "fp16").measuredRelative;
    EXPECT_GT(there / here, 1.3);
}

TEST(Validation, OllamaTokenGenerationOnThreeGeForceGenerations) {
    // The same 2025 post: Ollama 0.5.11 generating with nine Q4_K_M models of 1.5B to 32B parameters on
    // an RTX 3090, 4090 and 5090. Docs: 8.2% / 33.1% relative to the RTX 3090.
    // The bandwidth rule's median (9.6%) is beaten by a little; its p90 (15.0%) is not (below).
    const auto ev = evaluateWithin("ollama-decode-geforce-2025.csv", "RTX 3090", 18, 9.0, 34.0, 1);
    size_t large = 0;
    size_t small = 0;
    for (const auto& r : ev.rows) {
        if (!r.evaluated || r.row.gpu == "RTX 3090") {
            continue;
        }
        const double params = llmParamsBillion(r.row.workload).value_or(0);
        if (params >= 20) {
            // Models of 24B and more are bound by reading their weights: within 7% on both cards.
            EXPECT_LT(std::fabs(r.errorPct), 7.0) << r.row.gpu << " " << r.row.workload;
            ++large;
        } else if (params < 4 && r.row.gpu == "RTX 5090") {
            // Pinned miss: a small model's token is mostly the fixed 2.3 ms per token the calibration
            // (llama.cpp, May 2024) gives every card, where Ollama's 5090 build spends about 2 ms on
            // everything but the weights of a 1.5B model: its 2.0-2.4x the 3090 is predicted 1.2-1.4x.
            EXPECT_LT(r.errorPct, -25.0) << r.row.workload;
            ++small;
        }
    }
    EXPECT_EQ(large, 6u); // two 32B models and a 24B on the 4090 and the 5090
    EXPECT_EQ(small, 3u); // 3.8B, 3B and 1.5B on the 5090
}

} // namespace
} // namespace advisor::eval
