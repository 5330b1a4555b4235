#include "cli/expert_split_check.h"

#include "common/format.h"
#include "perf/serving_engine.h"

#include <cmath>
#include <string>

namespace advisor::cli {

ExpertSplitCheck::ExpertSplitCheck(Context& ctx, const perf::PerfModel& model,
                                   const std::vector<eval::FullLoadRun>& runs,
                                   const std::vector<eval::FullLoadRun>& neverFitted)
    : fit(eval::fitExpertExchange(model, ctx.catalog(), runs)) {
    perfBand.errorsPct = eval::expertSplitHeldOutErrors(model, ctx.catalog(), fit, neverFitted);
    for (size_t i = 0; i < runs.size(); ++i) {
        const auto& r = runs[i];
        const Gpu& g = ctx.catalog().require(r.gpu, "gpu");
        const double predicted = eval::predictFullLoad(model, g, r);
        const double errorPct = 100.0 * (predicted / r.outputTokensPerSecond - 1.0);
        eval::FullLoadRun byTensors = r;
        byTensors.query.llmSplit = perf::LlmSplit::Tensors;
        const double tensorsPct = eval::fullLoadErrorPct(model, g, byTensors);
        perf::ServingConstants oneAllReduce;
        oneAllReduce.expertExchangeAllReduces = 1.0;
        const double bytesPct = eval::fullLoadErrorPct(model, g, r, oneAllReduce);
        const int atOnce = eval::fullLoadSequences(g, r);
        const std::string link = perf::servingLink(g, r.query).kind;
        const bool pcie = link == "PCIe";
        asSplit.errorsPct.push_back(std::fabs(errorPct));
        (pcie ? asSplitPcie : asSplitNvlink).errorsPct.push_back(std::fabs(errorPct));
        asTensors.errorsPct.push_back(std::fabs(tensorsPct));
        (pcie ? asTensorsPcie : asTensorsNvlink).errorsPct.push_back(std::fabs(tensorsPct));
        bytesOnly.errorsPct.push_back(std::fabs(bytesPct));
        heldOut.errorsPct.push_back(std::fabs(fit.heldOutPct[i].value_or(errorPct)));
        predictedFast += errorPct > 0 ? 1 : 0;
        nlohmann::json row = fullLoadRowJson(r, atOnce, predicted, errorPct);
        row["as_tensors_error_pct"] = tensorsPct;
        row["one_all_reduce_error_pct"] = bytesPct;
        row["model_left_out_error_pct"] = fit.heldOutPct[i] ? nlohmann::json(*fit.heldOutPct[i]) : nlohmann::json();
        row["link"] = link;
        rows.push_back(std::move(row));
        auto cells = fullLoadRowCells(r, atOnce, predicted, errorPct);
        cells.push_back(fit.heldOutPct[i] ? format::number(*fit.heldOutPct[i], 1) + "%" : std::string());
        table.addRow(cells);
    }
}

nlohmann::json ExpertSplitCheck::json() const {
    nlohmann::json shipped = asSplit.json();
    shipped["predicted_fast"] = predictedFast;
    nlohmann::json band = perfBand.json();
    band["shipped_median_abs_error_pct"] = perf::kServingExpertSplitAccuracy.medianPct;
    band["shipped_p90_abs_error_pct"] = perf::kServingExpertSplitAccuracy.p90Pct;
    shipped["exchange_all_reduces_shipped"] = perf::kServingExpertExchangeAllReduces;
    shipped["exchange_all_reduces_fitted"] = fit.allReduces > 0 ? nlohmann::json(fit.allReduces) : nlohmann::json();
    shipped["model_left_out"] = heldOut.json();
    shipped["one_all_reduce"] = bytesOnly.json();
    return {{"rows", rows},
            {"split_by_experts", shipped},
            {"perf_band", band},
            {"split_by_experts_nvlink", asSplitNvlink.json()},
            {"split_by_experts_pcie", asSplitPcie.json()},
            {"read_as_tensors", asTensors.json()},
            {"read_as_tensors_nvlink", asTensorsNvlink.json()},
            {"read_as_tensors_pcie", asTensorsPcie.json()}};
}

void ExpertSplitCheck::print(std::ostream& out) const {
    out << "\na later release's mixtures of experts split by experts (attention data parallel with expert "
           "parallelism, DEP; never fitted on):\n";
    table.print(out);
    out << "\n  split by experts: " << asSplit.text() << ", " << predictedFast << " of them predicted fast (NVLink "
        << asSplitNvlink.text() << "; PCIe " << asSplitPcie.text() << ")\n"
        << "  each mixture layer's exchange (an all-gather and a reduce-scatter) takes "
        << format::number(perf::kServingExpertExchangeAllReduces, 2) << " all-reduces' time shipped, "
        << format::number(fit.allReduces, 2) << " fitted here; each model predicted by the exchange fitted without "
        << "it (LEFT OUT): " << heldOut.text() << "; at one all-reduce's time (its bytes alone): " << bytesOnly.text()
        << '\n'
        << "  the same runs read as split by tensors over the same cards: " << asTensors.text() << " (NVLink "
        << asTensorsNvlink.text() << "; PCIe " << asTensorsPcie.text() << ")\n"
        << "perf's band for a mixture split by experts (these each predicted by the exchange fitted without its "
           "model, and the 1.0 release's rows so split, never fitted): "
        << perfBand.text() << "; shipped " << format::number(perf::kServingExpertSplitAccuracy.medianPct, 1)
        << "% median, " << format::number(perf::kServingExpertSplitAccuracy.p90Pct, 1) << "% p90\n";
}

} // namespace advisor::cli
