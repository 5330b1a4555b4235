#include "perf/accuracy.h"

#include "common/embedded_resources.h"
#include "common/json_fields.h"
#include "perf/model.h"
#include "perf/serving_engine.h"

namespace advisor::perf {
namespace {

std::optional<ErrorBand> bandAt(const nlohmann::json& accuracy, const char* kind,
                                const char* which = "leave_one_architecture_out") {
    if (!accuracy.contains(kind) || !accuracy[kind].contains(which)) {
        return std::nullopt;
    }
    const auto& b = accuracy[kind][which];
    if (!b.is_object() || !b.value("median_abs_error_pct", nlohmann::json()).is_number() ||
        !b.value("p90_abs_error_pct", nlohmann::json()).is_number()) {
        return std::nullopt;
    }
    return ErrorBand{b["median_abs_error_pct"].get<double>(), b["p90_abs_error_pct"].get<double>(),
                     b.value("rows", 0)};
}

} // namespace

std::optional<ErrorBand> ModelAccuracy::forMetric(Metric m) const {
    switch (m) {
    case Metric::LlmDecode:
        return decode;
    case Metric::LlmPrefill:
        return prefill;
    default:
        return singleGpu;
    }
}

std::optional<ErrorBand> ModelAccuracy::forQuery(const PerfQuery& q) const {
    if (!isLlm(q.metric) && q.llmTrainingParamsBillion > 0) {
        return std::nullopt; // derived, not fitted: no held-out error on the calibration data says how good
    }
    if (isLlm(q.metric) && q.llmEngine == LlmEngine::TensorRtLlm) { // eval-serving's, not the calibration's
        // The mixtures' rows, the fp4 rows and those split by layers hold prompts and token generation
        // alike.
        if (q.gpus > 1 && q.llmSplit == LlmSplit::Experts) {
            if (q.llmExperts > 0) {
                return kServingExpertSplitAccuracy;
            }
            PerfQuery one = q; // a dense model split by experts is a whole copy on each card
            one.gpus = 1;
            return forQuery(one);
        }
        if (q.llmExperts > 0) {
            return kServingMixtureOfExpertsAccuracy;
        }
        if (q.gpus > 1 && q.llmSplit == LlmSplit::Layers) {
            return kServingPipelineAccuracy;
        }
        if (q.llmWeights == Precision::Fp4) {
            return kServingFp4Accuracy;
        }
        if (q.metric == Metric::LlmPrefill) {
            return q.gpus > 1 ? kServingPromptTensorParallelAccuracy : kServingPromptAccuracy;
        }
        if (servingAttentionOnTensorCores(q)) { // checked on a current release, not the 0.9 tables
            return q.gpus > 1 ? kServingFullLoadTensorParallelAccuracy : kServingFullLoadAccuracy;
        }
        return q.gpus > 1 ? kServingTensorParallelAccuracy : kServingAccuracy;
    }
    if (!isLlm(q.metric) && !q.workloadName.empty() && benchmarkWorkload) {
        return benchmarkWorkload;
    }
    return forMetric(q.metric);
}

ModelAccuracy accuracyFromCalibrationText(std::string_view text, const std::string& fileLabel) {
    const auto doc = parseJsonDocument(text, fileLabel);
    ModelAccuracy a;
    if (!doc.is_object() || !doc.contains("fit") || !doc["fit"].is_object() || !doc["fit"].contains("accuracy") ||
        !doc["fit"]["accuracy"].is_object()) {
        return a;
    }
    const auto& acc = doc["fit"]["accuracy"];
    // A calibration without workload profiles predicts every row from its class: its one
    // single-GPU figure is the class figure.
    a.benchmarkWorkload = bandAt(acc, "single_gpu");
    a.singleGpu = bandAt(acc, "single_gpu", "leave_one_architecture_out_class_shares");
    if (!a.singleGpu) {
        a.singleGpu = a.benchmarkWorkload;
    }
    a.scaling = bandAt(acc, "multi_gpu_scaling");
    a.decode = bandAt(acc, "llm_decode");
    a.prefill = bandAt(acc, "llm_prefill");
    return a;
}

const ModelAccuracy& shippedAccuracy() {
    static const ModelAccuracy a = [] {
        const auto data = resources::find("perf/calibration.json");
        return data ? accuracyFromCalibrationText(*data, "resources/perf/calibration.json") : ModelAccuracy{};
    }();
    return a;
}

} // namespace advisor::perf
