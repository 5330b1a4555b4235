// Tests for core/eval's calibration: what the fitter leaves out, its leave-one-architecture-out
// report, the measurement noise it reports, and that the shipped constants are what it produces.
#include "catalog/catalog.h"
#include "eval/benchmarks.h"
#include "eval/calibrate.h"
#include "eval/calibration_data.h"
#include "eval/error_floor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace advisor::eval {
namespace {

const std::string kHeader = "gpu,num_gpus,workload,workload_class,precision,batch_size,throughput,source\n";

TEST(Calibration, GemmRowsAreCheckedNotFitted) {
    // A GEMM's TFLOPS checks the compute roof alone (tests/fixtures/validation); the fitter
    // leaves such rows out and says so.
    const auto shipped = builtinBenchmarks();
    auto rows = shipped;
    for (auto& r : readBenchmarks(kHeader + "RTX 4090,1,torch-matmul-fp16,gemm,fp16,,165,x\n"
                                            "RTX 3090,1,torch-matmul-fp16,gemm,fp16,,75,x\n",
                                  "g.csv")) {
        EXPECT_TRUE(r.isGemm());
        EXPECT_EQ(r.metric(), perf::Metric::Fp16Training); // FP32 accumulate, as torch.matmul
        rows.push_back(r);
    }
    const Data with = prepare(rows, Catalog::builtin(), perf::ModelConstants{});
    const Data without = prepare(shipped, Catalog::builtin(), perf::ModelConstants{});
    EXPECT_EQ(with.single.size(), without.single.size());
    EXPECT_EQ(with.scaling.size(), without.scaling.size());
    EXPECT_EQ(with.decode.size() + with.prefill.size(), without.decode.size() + without.prefill.size());
    EXPECT_EQ(std::count(with.notes.begin(), with.notes.end(),
                         "2 GEMM rows (workload class gemm) check the compute roof on its own and are not fitted"),
              1);
}

// The profile the fitter gives TransformerXL-large on these rows (a copy: the fit does not outlive
// the call).
perf::WorkloadProfile transformerXlLargeFittedOn(const std::vector<BenchmarkRow>& rows) {
    const auto fit = fitModel(rows, Catalog::builtin(), perf::ModelConstants{});
    const auto* profile = fit.constants.profileFor("transformerxllarge");
    EXPECT_NE(profile, nullptr);
    return profile != nullptr ? *profile : perf::WorkloadProfile{};
}

TEST(Calibration, RowsOfAnotherBenchmarkFileAreComparedOnlyWithEachOther) {
    // A second benchmark file of the same networks: other software, other speeds. Here its single-GPU
    // rows run twice as fast and its multi-GPU rows as in the first, so its scaling looks half
    // as good. Each file's rows form their own groups, and a multi-GPU row is divided by the
    // single-GPU row of its own file, never by the other's.
    const auto shipped = builtinBenchmarks();
    auto rows = shipped;
    for (auto r : shipped) {
        if (r.isLlm()) {
            continue;
        }
        r.source = "a re-run on other software";
        r.file = "rerun.csv";
        if (r.numGpus == 1) {
            r.throughput *= 2;
        }
        rows.push_back(r);
    }
    const Data alone = prepare(shipped, Catalog::builtin(), perf::ModelConstants{});
    const Data both = prepare(rows, Catalog::builtin(), perf::ModelConstants{});
    ASSERT_EQ(both.single.size(), 2 * alone.single.size());
    ASSERT_EQ(both.scaling.size(), 2 * alone.scaling.size());
    std::map<std::string, double> original;
    for (const auto& o : alone.scaling) {
        original[o.row->file + ":" + std::to_string(o.row->line)] = o.measured;
    }
    for (const auto& o : both.scaling) {
        const double expected = original.at("resources/benchmarks/lambda-pytorch-train-2020-2021.csv:" +
                                            std::to_string(o.row->line));
        if (o.row->file == "rerun.csv") {
            EXPECT_NEAR(o.measured, expected / 2, 1e-12) << o.row->line;
        } else {
            EXPECT_NEAR(o.measured, expected, 1e-12) << o.row->line;
        }
    }
    std::set<std::string> groupsOfFirst;
    for (const auto& o : both.single) {
        if (o.row->file != "rerun.csv") {
            groupsOfFirst.insert(o.group);
        }
    }
    for (const auto& o : both.single) {
        if (o.row->file == "rerun.csv") {
            EXPECT_EQ(groupsOfFirst.count(o.group), 0u) << o.group;
        }
    }
    // The same batch multipliers as alone: a file's typical batch is its own.
    for (size_t i = 0; i < alone.single.size(); ++i) {
        EXPECT_DOUBLE_EQ(both.single[i].query.batchMultiplier, alone.single[i].query.batchMultiplier);
    }

    // Fitted together, each source's mixed-precision rows get their own FP32 matmul share.
    const auto txl = transformerXlLargeFittedOn(rows);
    EXPECT_EQ(txl.fp32MatmulShares.size(), 2u);
    EXPECT_GT(txl.fp32MatmulShareFor("a re-run on other software"), 0.4);
}

TEST(Calibration, AFileThatCitesALogPerRowIsStillOneBenchmark) {
    // MLPerf-style files name each row's log as its source. Their rows are still compared with
    // each other (one group per workload and precision of the file), and no row gets an FP32
    // matmul share of its own, which would let it fit itself.
    auto rows = builtinBenchmarks();
    for (auto& r : readBenchmarks(kHeader + "V100 SXM2 32GB,1,transformerxllarge,transformer,fp16,32,6000,log-1\n"
                                            "RTX 3090,1,transformerxllarge,transformer,fp16,16,9000,log-2\n"
                                            "A100 40GB SXM4,1,transformerxllarge,transformer,fp16,32,16000,log-3\n",
                                  "per-row.csv")) {
        rows.push_back(r);
    }
    const Data d = prepare(rows, Catalog::builtin(), perf::ModelConstants{});
    std::set<std::string> groups;
    for (const auto& o : d.single) {
        if (o.row->file == "per-row.csv") {
            groups.insert(o.group);
        }
    }
    EXPECT_EQ(groups.size(), 1u);
    const auto txl = transformerXlLargeFittedOn(rows);
    EXPECT_EQ(txl.fp32MatmulShares.size(), 1u);
    EXPECT_EQ(txl.fp32MatmulShareFor("log-1"), 0.0);
}

TEST(Calibration, ReportsEachBenchmarkFileApartWhenThereAreSeveral) {
    // Your own runs calibrated with the shipped ones: here the shipped fp32 rows again, as a file
    // of their own. The report gives each file's held-out figure and says which file a row is in.
    auto rows = builtinBenchmarks();
    for (auto r : builtinBenchmarks()) {
        if (!r.isLlm() && r.precision == perf::Precision::Fp32) {
            r.file = "mine.csv";
            r.source = "my runs";
            rows.push_back(r);
        }
    }
    const auto report = crossValidate(rows, Catalog::builtin(), perf::ModelConstants{});
    ASSERT_EQ(report.singleLoaoByFile.size(), 2u);
    EXPECT_EQ(report.singleLoaoByFile[0].first, "resources/benchmarks/lambda-pytorch-train-2020-2021.csv");
    EXPECT_EQ(report.singleLoaoByFile[1].first, "mine.csv");
    EXPECT_EQ(report.singleLoaoByFile[0].second.rows + report.singleLoaoByFile[1].second.rows,
              report.singleLoao.rows);
    EXPECT_GT(report.singleLoaoByFile[1].second.rows, 100u);
    const std::string md = report.toMarkdown();
    EXPECT_NE(md.find("Single-GPU leave-one-architecture-out, by benchmark file:"), std::string::npos) << md;
    EXPECT_NE(md.find("| mine.csv | "), std::string::npos) << md;
    EXPECT_NE(md.find(".csv:"), std::string::npos) << "the worst rows name their file";
    const auto j = report.toJson();
    EXPECT_EQ(j.at("single_gpu_loao_by_file").size(), 2u);
    EXPECT_TRUE(j.at("single_gpu_loao_worst_rows").at(0).contains("file"));
}

TEST(Calibration, ReportsLeaveOneArchitectureOutAndBeatsTheBaselines) {
    const auto report = crossValidate(builtinBenchmarks(), Catalog::builtin(), perf::ModelConstants{});
    std::vector<std::string> archs;
    for (const auto& a : report.byArchitecture) {
        archs.push_back(a.architecture);
    }
    EXPECT_EQ(archs, (std::vector<std::string>{"Ada", "Ampere", "Pascal", "Turing", "Volta"}));
    // Lambda's 8 single-GPU tacotron2/waveglow 'fp16' rows that ran in fp32 (known-issues.json)
    // are left out, and reported apart. Taken as labelled they move the p90 by less than a point:
    // with the host time per step, tacotron2 on Ampere is mostly waiting on the host, so whether
    // its GPU work ran in fp16 or fp32 changes little (it cost a point before that term).
    EXPECT_GT(report.singleLoao.rows, 240u);
    // One training file: its own figure is the whole figure, and the report has no per-file table.
    ASSERT_EQ(report.singleLoaoByFile.size(), 1u);
    EXPECT_EQ(report.singleLoaoByFile[0].first, "resources/benchmarks/lambda-pytorch-train-2020-2021.csv");
    EXPECT_EQ(report.singleLoaoByFile[0].second.rows, report.singleLoao.rows);
    EXPECT_DOUBLE_EQ(report.singleLoaoByFile[0].second.p90AbsPct, report.singleLoao.p90AbsPct);
    EXPECT_EQ(report.toMarkdown().find("by benchmark file"), std::string::npos);
    EXPECT_EQ(report.singleLoaoWithKnownIssues.rows, report.singleLoao.rows + 8);
    EXPECT_LT(std::fabs(report.singleLoaoWithKnownIssues.p90AbsPct - report.singleLoao.p90AbsPct), 1.0);
    // 40 multi-GPU rows of known issues (24 without mixed precision, 10 scaling impossibly, 6 of the
    // RTX 2080 Ti's BERT-large at 6 sequences/s on 2, 4 and 8 GPUs, with and without NVLink).
    EXPECT_EQ(report.scalingLoaoWithKnownIssues.rows, report.scalingLoao.rows + 40);
    EXPECT_GT(report.scalingLoaoWithKnownIssues.p90AbsPct, report.scalingLoao.p90AbsPct);
    // Honest claims, checked: the LOAO numbers are reported in docs/performance-model.md.
    EXPECT_LT(report.singleLoao.medianAbsPct, report.singleBandwidthBaseline.medianAbsPct);
    EXPECT_LT(report.singleLoao.p90AbsPct, report.singleBandwidthBaseline.p90AbsPct);
    EXPECT_LE(report.scalingLoao.medianAbsPct, 10.0);
    EXPECT_LT(report.scalingLoao.p90AbsPct, report.scalingLinearBaseline.p90AbsPct);
    EXPECT_LE(report.decodeLoao.medianAbsPct, 10.0);
    // Prompt processing has no target in the issue. Held out, an architecture's GeForce cards
    // (10 rows, two architectures) come out 14.4% off in the median since the matmuls' clock
    // follows board power linearly (7.6% with the cube root); the professional cards' figures,
    // which that law fixed, are checked on their own file (Validation tests).
    EXPECT_LE(report.prefillLoao.medianAbsPct, 16.0);
    EXPECT_LE(report.prefillLoao.p90AbsPct, 25.0);
    EXPECT_LE(report.singleInSample.medianAbsPct, report.singleLoao.medianAbsPct);
    // The issue's median target for a benchmark workload predicted with its own profile on an
    // architecture the fit never saw (8.6%; the p90, 29.6%, misses its 25%: docs).
    EXPECT_LE(report.singleLoao.medianAbsPct, 10.0);
    // A workload the calibration has not seen gets its class's shares: reported apart, and worse.
    EXPECT_EQ(report.singleLoaoByClass.rows, report.singleLoao.rows);
    EXPECT_GT(report.singleLoaoByClass.medianAbsPct, report.singleLoao.medianAbsPct);
    EXPECT_GT(report.singleLoaoByClass.p90AbsPct, report.singleLoao.p90AbsPct);
    EXPECT_LT(report.singleLoaoByClass.medianAbsPct, report.singleBandwidthBaseline.medianAbsPct);
    EXPECT_LE(report.singleInSampleByClass.medianAbsPct, report.singleLoaoByClass.medianAbsPct);
    // The floor (a free speed per GPU x class x precision, in-sample) is below what the class
    // shares reach in-sample with their dozen constants, and above zero: workloads of one class
    // differ. The workload profiles go below it.
    EXPECT_EQ(report.singleFreeFactorFloor.rows, report.singleInSample.rows);
    EXPECT_LT(report.singleFreeFactorFloor.medianAbsPct, report.singleInSampleByClass.medianAbsPct);
    EXPECT_LT(report.singleFreeFactorFloor.p90AbsPct, report.singleInSampleByClass.p90AbsPct);
    EXPECT_GT(report.singleFreeFactorFloor.p90AbsPct, 10.0);
    EXPECT_LT(report.singleInSample.medianAbsPct, report.singleFreeFactorFloor.medianAbsPct);
    // Lambda ran 64 configurations twice (2x Quadro RTX 6000, 8x A100 SXM4, 8x V100 16GB; counted
    // with a separate script): the runs differ by 2.7% median and 21.4% p90, e.g. bert_large
    // fp16 on 2x Quadro RTX 6000 at 50 and 66 sequences/s (lines 290 and 323).
    EXPECT_EQ(report.repeatMeasurements.rows, 64u);
    EXPECT_NEAR(report.repeatMeasurements.medianAbsPct, 2.74, 0.01);
    EXPECT_NEAR(report.repeatMeasurements.p90AbsPct, 21.39, 0.01);
}

TEST(MeasurementNoise, SpreadOfConfigurationsRunMoreThanOnce) {
    const auto rows = readBenchmarks(kHeader + "RTX 3090,1,bert,transformer,fp16,32,100,x\n"
                                               "RTX 3090,1,bert,transformer,fp16,32,121,x\n"
                                               "RTX 3090,1,bert,transformer,fp16,32,110,x\n"
                                               "RTX 3090,1,bert,transformer,fp16,64,150,x\n" // other batch
                                               "RTX 3090,2,bert,transformer,fp16,32,190,x\n" // other count
                                               "RTX 3090,1,bert,transformer,fp32,32,60,x\n"  // other precision
                                               "RTX 3090,1,resnet,cnn,fp16,,80,x\n"
                                               "RTX 3090,1,resnet,cnn,fp16,,100,x\n",
                                     "b.csv");
    auto other = readBenchmarks(kHeader + "RTX 3090,1,bert,transformer,fp16,32,300,y\n", "c.csv");
    auto both = rows;
    both.insert(both.end(), other.begin(), other.end()); // another campaign: not a repeat
    auto spreads = repeatMeasurementSpreads(both);
    std::sort(spreads.begin(), spreads.end());
    ASSERT_EQ(spreads.size(), 2u);
    EXPECT_NEAR(spreads[0], 0.21, 1e-12); // 121 / 100: the extremes of three runs
    EXPECT_NEAR(spreads[1], 0.25, 1e-12); // 100 / 80, both without a batch size
}

TEST(Calibration, ShippedConstantsAreWhatTheFitterProduces) {
    // resources/perf/calibration.json must be reproducible from the shipped benchmarks.
    const auto fit = fitModel(builtinBenchmarks(), Catalog::builtin(), perf::ModelConstants{});
    const auto& shipped = perf::ModelConstants::builtin();
    for (size_t k = 0; k < 4; ++k) {
        EXPECT_NEAR(fit.constants.shares[k].compute, shipped.shares[k].compute, 1e-6);
        EXPECT_NEAR(fit.constants.shares[k].memory, shipped.shares[k].memory, 1e-6);
        EXPECT_NEAR(fit.constants.allReduceCost[k], shipped.allReduceCost[k], 1e-6);
    }
    EXPECT_NEAR(fit.constants.decodeBandwidthEfficiency, shipped.decodeBandwidthEfficiency, 1e-6);
    EXPECT_NEAR(fit.constants.inferenceOverheadFactor, shipped.inferenceOverheadFactor, 1e-6);
    ASSERT_EQ(fit.constants.workloadProfiles.size(), shipped.workloadProfiles.size());
    for (const auto& [name, p] : fit.constants.workloadProfiles) {
        const auto* s = shipped.profileFor(name);
        ASSERT_NE(s, nullptr) << name;
        EXPECT_NEAR(p.shares.compute, s->shares.compute, 1e-6) << name;
        EXPECT_NEAR(p.batchGainPerDoubling, s->batchGainPerDoubling, 1e-6) << name;
        ASSERT_EQ(p.fp32MatmulShares.size(), s->fp32MatmulShares.size()) << name;
        for (const auto& [source, share] : p.fp32MatmulShares) {
            EXPECT_NEAR(share, s->fp32MatmulShareFor(source), 1e-6) << name << " " << source;
        }
    }
}

TEST(Calibration, TransformerXlsMixedPrecisionRunsKeptMatmulsInFp32) {
    // Lambda 2020-21 on one V100: fp16 over fp32 throughput is 3.5x for bert_base_squad and
    // 4.1x for bert_large_squad but 1.6x / 1.9x for TransformerXL base / large, and the Ampere
    // cards (TF32) lead the TransformerXL fp16 rows as they lead fp32 ones. The fit finds most
    // of TransformerXL's matmuls in FP32 and hardly any of BERT-large's, from the fp16 rows alone.
    const auto fit = fitModel(builtinBenchmarks(), Catalog::builtin(), perf::ModelConstants{});
    const auto* base = fit.constants.profileFor("transformerxlbase");
    const auto* large = fit.constants.profileFor("transformerxllarge");
    const auto* bert = fit.constants.profileFor("bert_large_squad");
    ASSERT_TRUE(base && large && bert);
    const std::string lambda2020 = "Lambda deeplearning-benchmark 2020-2021 (PyTorch NGC, fp16 AMP)";
    EXPECT_GT(base->fp32MatmulShareFor(lambda2020), 0.4);
    EXPECT_GT(large->fp32MatmulShareFor(lambda2020), 0.4);
    EXPECT_LT(bert->fp32MatmulShareFor(lambda2020), 0.1);
    // The share belongs to the software of the runs it was seen in, and to no other.
    EXPECT_EQ(base->fp32MatmulShares.size(), 1u);
    EXPECT_EQ(base->fp32MatmulShareFor("another benchmark"), 0.0);
    EXPECT_EQ(base->fp32MatmulShareFor(""), 0.0);

    // Without profiles (the option's 0), the class shares alone are fitted, as before.
    CalibrationOptions none;
    none.profilePriorWeight = 0;
    EXPECT_TRUE(fitModel(builtinBenchmarks(), Catalog::builtin(), perf::ModelConstants{}, none)
                    .constants.workloadProfiles.empty());
}

} // namespace
} // namespace advisor::eval
