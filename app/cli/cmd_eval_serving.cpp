// `gpu-advisor eval-serving`: LLM serving throughput in TensorRT-LLM predicted against its
// published tables, the engine's constants fitted again on them, and each architecture predicted
// by constants fitted without it.
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/eval_serving_rows.h"
#include "cli/expert_split_check.h"
#include "cli/perf_options.h"
#include "cli/table.h"
#include "common/file_io.h"
#include "common/format.h"
#include "eval/first_token.h"
#include "eval/full_load.h"
#include "eval/row_fields.h"
#include "eval/serving_fit.h"
#include "eval/stats.h"

#include <cmath>
#include <ostream>

namespace advisor::cli {
namespace {

nlohmann::json constantsJson(const perf::ServingConstants& k) {
    return {{"matmul_efficiency", k.matmulEfficiency},
            {"step_ms_per_doubling", k.stepMsPerDoubling},
            {"link_efficiency", k.linkEfficiency},
            {"all_reduce_us", k.allReduceUs},
            {"attention_efficiency", k.attentionEfficiency}};
}

std::string constantsText(const perf::ServingConstants& k) {
    return format::percent(k.matmulEfficiency, 1) + " of the tensor peak, " + format::number(k.stepMsPerDoubling, 2) +
           " ms per doubling of the sequences, links at " + format::percent(k.linkEfficiency, 0) + " and " +
           format::number(k.allReduceUs, 0) + " us per all-reduce, decode attention at " +
           format::percent(k.attentionEfficiency, 1) + " of the FP32 rate";
}

// TensorRT-LLM's first-token latencies at one sequence against the shipped constants (never
// fitted on): each row, and the bands for one GPU, tensor parallel and mixtures of experts.
struct FirstTokenCheck {
    nlohmann::json rows = nlohmann::json::array();
    Band single, parallel, mixture;
    TextTable table{{"GPU", "MODEL", "GPUS", "PROMPT", "MEASURED MS", "PREDICTED MS", "ERROR"}};

    FirstTokenCheck(Context& ctx, const perf::PerfModel& model, const std::vector<eval::FirstTokenRun>& runs) {
        for (const size_t c : {2u, 3u, 4u, 5u, 6u}) {
            table.setRightAligned(c);
        }
        for (const auto& r : runs) {
            const double predicted = eval::predictFirstTokenMs(model, ctx.catalog().require(r.gpu, "gpu"), r);
            const double errorPct = 100.0 * (predicted / r.firstTokenMs - 1.0);
            (r.mixtureOfExperts() ? mixture
             : r.query.gpus > 1   ? parallel
                                  : single)
                .errorsPct.push_back(std::fabs(errorPct));
            rows.push_back({{"line", r.line},
                            {"gpu", r.gpu},
                            {"model", r.model},
                            {"gpus", r.query.gpus},
                            {"input_tokens", r.inputTokens},
                            {"measured_ms", r.firstTokenMs},
                            {"predicted_ms", predicted},
                            {"error_pct", errorPct},
                            {"mixture_of_experts", r.mixtureOfExperts()}});
            table.addRow({r.gpu, r.model, std::to_string(r.query.gpus), std::to_string(r.inputTokens),
                          format::number(r.firstTokenMs, 1), format::number(predicted, 1),
                          format::number(errorPct, 1) + "%"});
        }
    }
    nlohmann::json json() const {
        return {{"rows", rows},
                {"single_gpu", single.json()},
                {"tensor_parallel", parallel.json()},
                {"mixture_of_experts", mixture.json()}};
    }
    void print(std::ostream& out) const {
        out << "\ntime to the first token at one sequence (no constant fitted on it):\n";
        table.print(out);
        out << "\n  one GPU, dense models: " << single.text() << '\n'
            << "  tensor parallel, dense models: " << parallel.text() << '\n'
            << "  mixtures of experts: " << mixture.text() << '\n';
    }
};

// A current release at full load against the shipped constants: each row, the bands on one GPU
// and tensor parallel of the rows other than 4-bit floats (never fitted on), the 4-bit float
// rows' with the one constant fitted on them, in sample and each GPU held out, and the rows split
// by layers' with the hand-over fitted on them, in sample and each count of cards held out.
struct FullLoadCheck {
    nlohmann::json rows = nlohmann::json::array();
    Band single, parallel, fp4, fp4HeldOut, byLayers, byLayersHeldOut;
    eval::FullLoadFit fit;
    TextTable table = fullLoadTable();

    FullLoadCheck(Context& ctx, const perf::PerfModel& model, const std::vector<eval::FullLoadRun>& runs)
        : fit(eval::fitFullLoad(model, ctx.catalog(), runs)) {
        for (size_t i = 0; i < runs.size(); ++i) {
            const auto& r = runs[i];
            const Gpu& g = ctx.catalog().require(r.gpu, "gpu");
            const double errorPct = fit.errorsPct[i];
            const double predicted = fit.predictedTokensPerSecond[i];
            const int atOnce = eval::fullLoadSequences(g, r);
            const auto& heldOut = fit.heldOutPct[i];
            const bool pipeline = eval::splitByLayers(r);
            if (pipeline) {
                byLayers.errorsPct.push_back(std::fabs(errorPct));
                if (heldOut) {
                    byLayersHeldOut.errorsPct.push_back(std::fabs(*heldOut));
                }
            } else if (r.query.llmWeights == perf::Precision::Fp4) {
                fp4.errorsPct.push_back(std::fabs(errorPct));
                if (heldOut) {
                    fp4HeldOut.errorsPct.push_back(std::fabs(*heldOut));
                }
            } else {
                (r.query.gpus > 1 ? parallel : single).errorsPct.push_back(std::fabs(errorPct));
            }
            nlohmann::json row = fullLoadRowJson(r, atOnce, predicted, errorPct);
            row["gpu_left_out_error_pct"] = heldOut && !pipeline ? nlohmann::json(*heldOut) : nlohmann::json();
            row["cards_left_out_error_pct"] = heldOut && pipeline ? nlohmann::json(*heldOut) : nlohmann::json();
            rows.push_back(std::move(row));
            auto cells = fullLoadRowCells(r, atOnce, predicted, errorPct);
            cells.push_back(heldOut ? format::number(*heldOut, 1) + "%" : std::string());
            table.addRow(cells);
        }
    }
    nlohmann::json json() const {
        return {{"rows", rows},
                {"single_gpu", single.json()},
                {"tensor_parallel", parallel.json()},
                {"fp4",
                 {{"rate_share_shipped", perf::kServingFp4RateShare},
                  {"rate_share_fitted", fp4.errorsPct.empty() ? nlohmann::json() : nlohmann::json(fit.fp4RateShare)},
                  {"shipped", fp4.json()},
                  {"gpu_left_out", fp4HeldOut.json()}}},
                {"split_by_layers", splitByLayersJson()}};
    }
    // The band of the rows split by layers, the hand-over fitted on them and each count of cards
    // predicted by the hand-over fitted without it.
    nlohmann::json splitByLayersJson() const {
        nlohmann::json j = byLayers.json();
        j["hand_over_ms_shipped"] = perf::kServingPipelineHandOverMs;
        j["hand_over_ms_fitted"] =
            byLayers.errorsPct.empty() ? nlohmann::json() : nlohmann::json(fit.pipelineHandOverMs);
        j["cards_left_out"] = byLayersHeldOut.json();
        return j;
    }
    void print(std::ostream& out) const {
        out << "\na current release at full load, as many requests at once as fit whole, prompt and answer:\n";
        table.print(out);
        out << "\n  the other weights (no constant fitted on them): one GPU " << single.text() << "; tensor parallel "
            << parallel.text() << '\n';
        if (!fp4.errorsPct.empty()) {
            out << "  4-bit floats (NVFP4), whose matmuls reach a fitted share of the FP4 rate: "
                << format::percent(fit.fp4RateShare, 1) << " fitted here ("
                << format::percent(perf::kServingFp4RateShare, 1) << " shipped: " << fp4.text()
                << "); each GPU predicted by the share fitted without it (LEFT OUT): " << fp4HeldOut.text() << '\n';
        }
        if (!byLayers.errorsPct.empty()) {
            out << "  split by layers (pipeline parallel), whose steps take a fitted hand-over to each other card: "
                << format::number(fit.pipelineHandOverMs, 2) << " ms fitted here ("
                << format::number(perf::kServingPipelineHandOverMs, 2) << " shipped: " << byLayers.text()
                << "); each count of cards predicted by the hand-over fitted without it (LEFT OUT): "
                << byLayersHeldOut.text() << '\n';
        }
    }
};

// Full-load runs other than the 1.0 file's against the shipped constants: the dense models' rows on
// one GPU, split by tensors and split by layers, and the mixtures of experts' (on one GPU and split by
// tensors), with the routed experts' matmul share on warpgroup-MMA cards fitted on them and each model
// predicted by the share fitted without it (LEFT OUT; the other cards' rows as shipped, the share not
// theirs). A later release's mixtures fit the shipped share; the 1.0 file's left-out rows fit nothing.
struct FullLoadReleaseCheck {
    std::string title;
    nlohmann::json rows = nlohmann::json::array();
    Band single, parallel, byLayers, dense, mixture, mixtureSingle, mixtureParallel, mixtureHeldOut;
    int mixtureFast = 0;
    eval::RoutedShareFit fit;
    TextTable table = fullLoadTable();

    FullLoadReleaseCheck(Context& ctx, const perf::PerfModel& model, const std::vector<eval::FullLoadRun>& runs,
                         std::string heading)
        : title(std::move(heading)), fit(eval::fitRoutedMatmulShare(model, ctx.catalog(), runs)) {
        for (size_t i = 0; i < runs.size(); ++i) {
            const auto& r = runs[i];
            const Gpu& g = ctx.catalog().require(r.gpu, "gpu");
            const double predicted = eval::predictFullLoad(model, g, r);
            const double errorPct = 100.0 * (predicted / r.outputTokensPerSecond - 1.0);
            const int atOnce = eval::fullLoadSequences(g, r);
            const auto& heldOut = fit.heldOutPct[i];
            if (r.mixtureOfExperts()) {
                mixture.errorsPct.push_back(std::fabs(errorPct));
                (r.query.gpus > 1 ? mixtureParallel : mixtureSingle).errorsPct.push_back(std::fabs(errorPct));
                mixtureHeldOut.errorsPct.push_back(std::fabs(heldOut.value_or(errorPct)));
                mixtureFast += errorPct > 0 ? 1 : 0;
            } else {
                dense.errorsPct.push_back(std::fabs(errorPct));
                (eval::splitByLayers(r) ? byLayers
                 : r.query.gpus > 1     ? parallel
                                        : single)
                    .errorsPct.push_back(std::fabs(errorPct));
            }
            nlohmann::json row = fullLoadRowJson(r, atOnce, predicted, errorPct);
            row["model_left_out_error_pct"] = heldOut ? nlohmann::json(*heldOut) : nlohmann::json();
            rows.push_back(std::move(row));
            auto cells = fullLoadRowCells(r, atOnce, predicted, errorPct);
            cells.push_back(heldOut ? format::number(*heldOut, 1) + "%" : std::string());
            table.addRow(cells);
        }
    }
    nlohmann::json json() const {
        nlohmann::json moe = mixture.json();
        moe["predicted_fast"] = mixtureFast;
        moe["routed_matmul_share_shipped"] = perf::kServingRoutedMatmulShare;
        moe["routed_matmul_share_fitted"] = fit.share > 0 ? nlohmann::json(fit.share) : nlohmann::json();
        moe["model_left_out"] = mixtureHeldOut.json();
        moe["single_gpu"] = mixtureSingle.json();
        moe["tensor_parallel"] = mixtureParallel.json();
        return {{"rows", rows},
                {"dense", dense.json()},
                {"dense_single_gpu", single.json()},
                {"dense_tensor_parallel", parallel.json()},
                {"dense_split_by_layers", byLayers.json()},
                {"mixture_of_experts", moe}};
    }
    void print(std::ostream& out) const {
        out << "\n" << title << ":\n";
        table.print(out);
        out << "\n  dense models: " << dense.text() << " (one GPU " << single.text() << "; tensor parallel "
            << parallel.text() << "; split by layers " << byLayers.text() << ")\n"
            << "  mixtures of experts, whose routed experts multiply at a fitted share of the matmul rate on "
               "warpgroup-MMA cards: "
            << format::percent(fit.share, 1) << " fitted here (" << format::percent(perf::kServingRoutedMatmulShare, 1)
            << " shipped: " << mixture.text() << ", " << mixtureFast << " of them predicted fast; one GPU "
            << mixtureSingle.text() << "; several cards " << mixtureParallel.text()
            << "); each model predicted by the share fitted without it (LEFT OUT; the other cards' rows as "
               "shipped): "
            << mixtureHeldOut.text() << '\n';
    }
};

nlohmann::json moeBandJson(const Band& band) {
    nlohmann::json j = band.json();
    j["shipped_median_abs_error_pct"] = perf::kServingMixtureOfExpertsAccuracy.medianPct;
    j["shipped_p90_abs_error_pct"] = perf::kServingMixtureOfExpertsAccuracy.p90Pct;
    return j;
}

// The full-load runs of the file an option names, else the built-in ones; each GPU must resolve.
std::vector<eval::FullLoadRun> fullLoadRunsOption(Context& ctx, const Args& args, const char* option,
                                                  std::vector<eval::FullLoadRun> (*builtin)(),
                                                  const char* builtinLabel) {
    const auto file = args.value(option);
    auto runs = file ? eval::readFullLoadRuns(files::readAll(*file), *file) : builtin();
    eval::requireRunGpus(ctx.catalog(), runs, file.value_or(builtinLabel));
    return runs;
}

int run(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    const auto file = args.value("runs");
    const auto runs = file ? eval::readServingRuns(files::readAll(*file), *file) : eval::builtinServingRuns();
    eval::requireRunGpus(ctx.catalog(), runs, file.value_or("the built-in serving runs"));
    const auto firstTokenFile = args.value("first-token");
    const auto firstTokenRuns = firstTokenFile
                                    ? eval::readFirstTokenRuns(files::readAll(*firstTokenFile), *firstTokenFile)
                                    : eval::builtinFirstTokenRuns();
    eval::requireRunGpus(ctx.catalog(), firstTokenRuns, firstTokenFile.value_or("the built-in first-token runs"));
    const auto fullLoadRuns =
        fullLoadRunsOption(ctx, args, "full-load", eval::builtinFullLoadRuns, "the built-in full-load runs");
    const auto laterRuns =
        fullLoadRunsOption(ctx, args, "later", eval::builtinLaterFullLoadRuns, "the built-in later-release runs");
    const auto neverFittedRuns = fullLoadRunsOption(ctx, args, "never-fitted", eval::builtinNeverFittedFullLoadRuns,
                                                    "the built-in never-fitted full-load runs");
    const perf::PerfModel model(ctx.catalog(), modelConstants(args));
    const eval::ServingFit fit = eval::fitServingConstants(runs, ctx.catalog(), model);
    const FirstTokenCheck firstToken(ctx, model, firstTokenRuns);
    const FullLoadCheck fullLoad(ctx, model, fullLoadRuns);
    const FullLoadReleaseCheck later(ctx, model, laterRuns,
                                     "a later release at full load (its dense rows never fitted on)");
    const FullLoadReleaseCheck neverFitted(ctx, model, neverFittedRuns,
                                           "the 1.0 release's rows left out of its file at full load (never fitted "
                                           "on; the share fitted here is what they would ask for)");
    const Band moeBand{eval::mixtureOfExpertsHeldOutErrors(model, ctx.catalog(), laterRuns, neverFittedRuns)};
    const ExpertSplitCheck expertSplit(ctx, model,
                                       fullLoadRunsOption(ctx, args, "expert-split",
                                                          eval::builtinExpertSplitFullLoadRuns,
                                                          "the built-in runs split by experts"),
                                       neverFittedRuns);
    // Bands: the shipped constants' errors; the fit's by kind of row; held-out architectures'.
    Band shipped, fittedSingle, fittedParallel, heldOutSingle, heldOutParallel, mixture, llamaCpp;
    nlohmann::json rows = nlohmann::json::array();
    TextTable t({"GPU", "MODEL", "GPUS", "SEQS", "IN/OUT", "MEASURED", "PREDICTED", "ERROR", "ARCH LEFT OUT"});
    for (const size_t c : {2u, 3u, 5u, 6u, 7u, 8u}) {
        t.setRightAligned(c);
    }
    for (size_t i = 0; i < runs.size(); ++i) {
        const auto& r = runs[i];
        const Gpu& g = ctx.catalog().require(r.gpu, "gpu");
        const double predicted = eval::predictServingRun(model, g, r);
        const double errorPct = 100.0 * (predicted / r.tokensPerSecondPerGpu - 1.0);
        shipped.errorsPct.push_back(std::fabs(errorPct));
        const bool parallel = r.query.gpus > 1;
        if (r.mixtureOfExperts()) {
            mixture.errorsPct.push_back(std::fabs(fit.errorsPct[i]));
        } else {
            (parallel ? fittedParallel : fittedSingle).errorsPct.push_back(std::fabs(fit.errorsPct[i]));
            (parallel ? heldOutParallel : heldOutSingle).errorsPct.push_back(fit.leaveOneArchitectureOutPct[i]);
        }
        // The same batch in llama.cpp's kernels: how far the default engine is from a serving one.
        eval::ServingRun inLlamaCpp = r;
        inLlamaCpp.query.llmEngine = perf::LlmEngine::LlamaCpp;
        if (!parallel) {
            llamaCpp.errorsPct.push_back(
                100.0 * std::fabs(model.throughput(g, inLlamaCpp.query) / model.throughput(g, r.query) - 1.0));
        }
        const std::string inOut = std::to_string(r.inputTokens) + "/" + std::to_string(r.outputTokens);
        const std::string heldOut =
            r.mixtureOfExperts() ? "not fitted" : format::number(fit.leaveOneArchitectureOutPct[i], 1) + "%";
        rows.push_back({{"line", r.line},
                        {"gpu", r.gpu},
                        {"model", r.model},
                        {"gpus", r.query.gpus},
                        {"sequences", r.query.llmSequences},
                        {"input_tokens", r.inputTokens},
                        {"output_tokens", r.outputTokens},
                        {"measured_tokens_per_s_per_gpu", r.tokensPerSecondPerGpu},
                        {"predicted_tokens_per_s_per_gpu", predicted},
                        {"error_pct", errorPct},
                        {"fitted_error_pct", fit.errorsPct[i]},
                        {"mixture_of_experts", r.mixtureOfExperts()},
                        {"leave_one_architecture_out_abs_error_pct",
                         r.mixtureOfExperts() ? nlohmann::json() : nlohmann::json(fit.leaveOneArchitectureOutPct[i])}});
        t.addRow({r.gpu, r.model, std::to_string(r.query.gpus), std::to_string(r.query.llmSequences), inOut,
                  format::number(r.tokensPerSecondPerGpu, 0), format::number(predicted, 0),
                  format::number(errorPct, 1) + "%", heldOut});
    }
    if (ctx.json()) {
        ctx.printJson({{"rows", rows},
                       {"shipped", {{"constants", constantsJson({})}, {"errors", shipped.json()}}},
                       {"fitted",
                        {{"constants", constantsJson(fit.constants)},
                         {"single_gpu", fittedSingle.json()},
                         {"tensor_parallel", fittedParallel.json()},
                         {"mixture_of_experts_not_fitted", mixture.json()}}},
                       {"leave_one_architecture_out",
                        {{"single_gpu", heldOutSingle.json()}, {"tensor_parallel", heldOutParallel.json()}}},
                       {"llama_cpp_kernels_vs_these", llamaCpp.json()},
                       {"first_token", firstToken.json()},
                       {"full_load", fullLoad.json()},
                       {"later_release", later.json()},
                       {"never_fitted", neverFitted.json()},
                       {"mixture_of_experts_band", moeBandJson(moeBand)},
                       {"expert_split", expertSplit.json()}});
        return 0;
    }
    t.print(ctx.out());
    ctx.out() << "\nshipped constants (" << constantsText({}) << "): " << shipped.text() << '\n'
              << "fitted on these runs (" << constantsText(fit.constants) << "):\n"
              << "  one GPU, dense models: " << fittedSingle.text() << '\n'
              << "  tensor parallel, dense models: " << fittedParallel.text() << '\n'
              << "  mixtures of experts (not fitted on): " << mixture.text() << '\n'
              << "each architecture predicted by constants fitted without it (ARCH LEFT OUT):\n"
              << "  one GPU: " << heldOutSingle.text() << '\n'
              << "  tensor parallel: " << heldOutParallel.text() << '\n'
              << "llama.cpp's kernels (the default engine) on the single-GPU batches differ from these by "
              << llamaCpp.text() << '\n';
    firstToken.print(ctx.out());
    fullLoad.print(ctx.out());
    later.print(ctx.out());
    neverFitted.print(ctx.out());
    ctx.out()
        << "\nperf's band for a mixture of experts in the engine (the later release's each predicted by the share "
           "fitted without its model, the 1.0 release's never fitted): "
        << moeBand.text() << "; shipped " << format::number(perf::kServingMixtureOfExpertsAccuracy.medianPct, 1)
        << "% median, " << format::number(perf::kServingMixtureOfExpertsAccuracy.p90Pct, 1) << "% p90\n";
    expertSplit.print(ctx.out());
    return 0;
}

Args parseOptions(const std::vector<std::string>& rest) {
    return Args::parse(
        rest, {{"runs"}, {"first-token"}, {"full-load"}, {"later"}, {"never-fitted"}, {"expert-split"}, {"constants"}});
}

} // namespace

Command evalServingCommand() {
    return {"eval-serving", "LLM serving throughput in TensorRT-LLM, against its published tables",
            "Usage: gpu-advisor eval-serving [--runs FILE.csv] [--first-token FILE.csv]\n"
            "                                [--full-load FILE.csv] [--later FILE.csv]\n"
            "                                [--never-fitted FILE.csv] [--expert-split FILE.csv]\n"
            "                                [--constants calibration.json]\n\n"
            "Predicts TensorRT-LLM's published peak throughput (output tokens/s per GPU for batches of\n"
            "requests of a given length in and out, on 1-8 GPUs) with the model's serving engine\n"
            "(--engine tensorrt-llm of perf, value, chart and recommend): the batch's prompts, then its\n"
            "token generation step by step. Shows each row's error with the shipped constants, fits the\n"
            "engine's four constants again (the matmul efficiency and the time per doubling of the\n"
            "sequences on one GPU's rows, then the links' efficiency and the all-reduce's latency on the\n"
            "tensor-parallel rows; mixtures of experts are predicted, never fitted), and predicts each\n"
            "architecture by constants fitted without it. --runs reads another file of the same columns\n"
            "(default resources/perf/tensorrt-llm-0.9-throughput.csv):\n"
            "  gpu,model,params_billion,active_params_billion,experts,experts_per_token,layers,hidden,\n"
            "  kv_values_per_token,weights,bits_per_weight,kv_cache,gpus,sequences,input_tokens,\n"
            "  output_tokens,tokens_per_s_per_gpu,source\n"
            "Then predicts TensorRT-LLM's published time to the first token of one request (batch size\n"
            "1; no constant fitted on it) with the shipped constants: its prompt is one step, the\n"
            "weights read once, then each token's matmuls, then the step's fixed time. --first-token\n"
            "reads another file (default resources/perf/tensorrt-llm-0.9-first-token.csv) ending in\n"
            "  ...,kv_cache,gpus,input_tokens,first_token_ms,source\n"
            "Then predicts a current release at full load (TensorRT-LLM 1.0's perf overview: as many\n"
            "requests at once as fit whole, since its scheduler reserves each one's prompt and whole\n"
            "answer before admitting it, at most trtllm-bench's 4,096; grouped-query attention on the\n"
            "tensor cores; no constant fitted on its FP8 rows). Its fp4 rows (NVFP4 on Blackwell) fit\n"
            "one constant, the share of the FP4 tensor rate their matmuls reach, and each GPU's rows\n"
            "are predicted by the share fitted on the others' (LEFT OUT); its rows split by layers fit\n"
            "another, each step's hand-over to each other card, and each count of cards is predicted\n"
            "by the hand-over fitted on the other counts' (LEFT OUT). --full-load reads another file\n"
            "(default resources/perf/tensorrt-llm-1.0-full-load.csv):\n"
            "  gpu,model,gpus,weights,kv_cache,input_tokens,output_tokens,output_tokens_per_s,source\n"
            "  [,split]  (tensors, the default, layers or experts)\n"
            "where model is a published model's id (gpu-advisor memory --help lists them).\n"
            "Then predicts a later release's perf overview with the shipped constants: Llama 3.3 70B\n"
            "at new lengths and on new GPU counts (never fitted on), and three mixtures of experts\n"
            "(Qwen3 30B-A3B, gpt-oss-20b and gpt-oss-120b), on which it fits one constant, the share of\n"
            "the dense matmul rate a mixture's routed experts reach on cards whose dense peak needs\n"
            "warpgroup MMA (Hopper, B200, GB200), and predicts each model's rows by the share fitted on\n"
            "the others' (LEFT OUT). --later reads another file of the full-load columns (default\n"
            "resources/perf/tensorrt-llm-later-full-load.csv).\n"
            "Last, predicts the 1.0 overview's rows its file leaves out, with the shipped constants and\n"
            "nothing fitted on them: its mixtures of experts (Qwen3 30B-A3B on one B200 or GB200 and on\n"
            "1-8 RTX PRO 6000s, Qwen3 235B-A22B and Llama 4 Maverick on eight B200s, H200s or H100s,\n"
            "Llama 4 Scout on one B200 or GB200 and on four H200s or H100s; on several cards split by\n"
            "experts, as the overview's recipe for mixtures sets attention data parallel) and Llama\n"
            "3.1 405B on eight RTX PRO 6000s split by layers. --never-fitted reads another file of the\n"
            "full-load columns (default resources/perf/tensorrt-llm-1.0-never-fitted.csv).\n"
            "And predicts the later release's mixtures of experts split by experts (split experts:\n"
            "attention data parallel with expert parallelism, DEP; Llama 4 Maverick, Qwen3 235B-A22B and\n"
            "gpt-oss-120b on 2-8 B200s, GB200s, H200s or H100s, Qwen3 30B-A3B and 235B-A22B on 2 or 8\n"
            "RTX PRO 6000s): fits the time of each mixture layer's exchange on them and predicts each\n"
            "model's rows by the exchange fitted on the others' (LEFT OUT), beside the same runs read as\n"
            "split by tensors; with the 1.0 release's runs split so they give perf's band.\n"
            "--expert-split reads another file of the full-load columns (default\n"
            "resources/perf/tensorrt-llm-later-expert-split.csv).\n",
            [](Context& ctx, const std::vector<std::string>& rest) { return run(ctx, parseOptions(rest)); }};
}

} // namespace advisor::cli
