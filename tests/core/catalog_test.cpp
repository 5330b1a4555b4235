// Tests for core/catalog: the shipped catalog, validation errors and name resolution.
#include "catalog/catalog.h"
#include "catalog/gpu_json.h"
#include "common/csv.h"
#include "common/file_io.h"

#include <gtest/gtest.h>

#include <set>

namespace advisor {
namespace {

const Catalog& cat() {
    return Catalog::builtin();
}

TEST(BuiltinCatalog, HasAtLeastSixtyValidGpusFromPascalToBlackwell) {
    EXPECT_GE(cat().size(), 60u);
    std::set<std::string> archs;
    for (const auto& g : cat().gpus()) {
        archs.insert(g.architecture);
        EXPECT_GT(g.memoryBandwidthGbs, 0) << g.name;
        EXPECT_FALSE(g.sources.empty()) << g.name << " has no source";
        for (const auto& source : g.sources) {
            // A reader sees each source: an address or words, never a bare reference key ("L4_DS").
            const bool bareKey = source.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string::npos;
            EXPECT_FALSE(bareKey) << g.name << ": " << source;
        }
    }
    for (const char* a : {"Pascal", "Volta", "Turing", "Ampere", "Ada", "Hopper", "Blackwell", "RDNA 3", "CDNA 3"}) {
        EXPECT_TRUE(archs.count(a)) << a;
    }
}

TEST(BuiltinCatalog, TheSxm2V100sDifferOnlyInMemorySize) {
    // Lambda's "Tesla V100 16GB" is the 300 W SXM2 module with NVLink, not the 250 W PCIe card:
    // resolving it to the PCIe card would give its 8-GPU servers a PCIe link and a lower clock.
    const Gpu& small = cat().require("Tesla V100 16GB");
    const Gpu& large = cat().require("V100 SXM2 32GB");
    EXPECT_EQ(small.id, "v100-sxm2-16gb");
    EXPECT_EQ(small.memoryGb, 16);
    EXPECT_EQ(large.memoryGb, 32);
    EXPECT_EQ(small.tdpW, large.tdpW);
    EXPECT_EQ(small.form, large.form);
    EXPECT_EQ(small.interconnectGbs, large.interconnectGbs);
    EXPECT_EQ(small.memoryBandwidthGbs, large.memoryBandwidthGbs);
    EXPECT_EQ(small.fp32Tflops, large.fp32Tflops);
    EXPECT_EQ(small.tensor.fp16Fp32Acc, large.tensor.fp16Fp32Acc);
    EXPECT_EQ(cat().require("V100 PCIe 16GB").tdpW, 250);
}

TEST(BuiltinCatalog, TheRtxPro5000sDifferOnlyInMemorySizeAndNeedTheirSizeNamed) {
    // NVIDIA's 72 GB RTX PRO 5000 Blackwell (late 2025) has 3 GB modules where the first had 2 GB:
    // the same 110 SMs, 384 bits, 1,344 GB/s and 300 W, so only memory fit tells them apart.
    const Gpu& small = cat().require("RTX PRO 5000 48GB");
    const Gpu& large = cat().require("RTX PRO 5000 72GB");
    EXPECT_EQ(small.memoryGb, 48);
    EXPECT_EQ(large.memoryGb, 72);
    EXPECT_EQ(small.memoryBandwidthGbs, 1344);
    EXPECT_EQ(small.memoryBandwidthGbs, large.memoryBandwidthGbs);
    EXPECT_EQ(small.tdpW, 300);
    EXPECT_EQ(small.tdpW, large.tdpW);
    EXPECT_EQ(small.computeUnits, 110);
    EXPECT_EQ(small.computeUnits, large.computeUnits);
    EXPECT_EQ(small.tensor.bf16, large.tensor.bf16);
    // nvidia-smi names both "NVIDIA RTX PRO 5000 Blackwell": the size must be said.
    const Resolution r = cat().resolve("NVIDIA RTX PRO 5000 Blackwell");
    ASSERT_EQ(r.status, ResolveStatus::Ambiguous);
    EXPECT_EQ(r.candidates.size(), 2u);
    EXPECT_EQ(cat().require("Quadro RTX 5000").id, "quadro-rtx-5000");
    EXPECT_EQ(cat().require("RTX 5000 Ada").memoryGb, 32);
}

TEST(BuiltinCatalog, TheDgxSparkIsACompleteComputerOnTheRtx5070sSms) {
    // NVIDIA's GB10 (Hot Chips 2025): 6,144 CUDA cores, 1 PFLOP FP4 with sparsity, about 31 TFLOPS
    // FP32, 140 W for the whole chip, 128 GB of LPDDR5X at 273 GB/s shared with its CPU.
    const Gpu& spark = cat().require("DGX Spark");
    for (const char* name : {"NVIDIA GB10", "GB10", "ASUS Ascent GX10", "Dell Pro Max GB10", "Project DIGITS"}) {
        EXPECT_EQ(cat().require(name).id, "dgx-spark") << name;
    }
    EXPECT_TRUE(spark.isCompleteSystem());
    EXPECT_EQ(spark.formCode, "system");
    EXPECT_FALSE(spark.slotWidth);
    EXPECT_EQ(spark.memoryGb, 128);
    EXPECT_EQ(spark.memoryBandwidthGbs, 273);
    EXPECT_EQ(spark.tdpW, 140);
    EXPECT_NEAR(*spark.tensor.fp4 * 2, 1000, 1e-9); // the sparse petaflop
    // The RTX 5070's 48 SMs, on another chip: the SM configuration whose power the GB10's is set against.
    const Gpu& peer = cat().require(spark.configurationPeer);
    EXPECT_EQ(peer.name, "RTX 5070");
    EXPECT_EQ(peer.computeUnits, spark.computeUnits);
    EXPECT_NE(peer.chip, spark.chip);
    EXPECT_NEAR(*spark.fp32Tflops / *peer.fp32Tflops, 1.0, 0.01);
    EXPECT_FALSE(cat().require("RTX 5070").isCompleteSystem());
}

TEST(BuiltinCatalog, InstinctMatrixRatesAreTheirCusTimesClockTimes1024) {
    // AMD's table as AnandTech printed it (March 2022): FP16 matrix = CUs x boost x 1024 FLOPs per
    // CU per clock on CDNA 1 and 2; the MI250 is two MI210 dies; FP32 vector = CUs x boost x 128.
    const auto perCuPerClock = [](const Gpu& g, double ghz) {
        return *g.tensor.fp16Fp32Acc * 1000.0 / *g.computeUnits / ghz;
    };
    EXPECT_NEAR(perCuPerClock(cat().require("MI100"), 1.502), 1024, 1);
    EXPECT_NEAR(perCuPerClock(cat().require("MI210"), 1.7), 1024, 1);
    EXPECT_NEAR(perCuPerClock(cat().require("MI250X"), 1.7), 1024, 1);
    const Gpu& mi210 = cat().require("AMD Instinct MI210");
    const Gpu& mi250 = cat().require("Instinct MI250");
    EXPECT_EQ(mi250.id, "mi250"); // no longer "did you mean MI250X?"
    EXPECT_EQ(cat().require("MI250X").id, "mi250x");
    EXPECT_EQ(*mi250.computeUnits, 2 * *mi210.computeUnits);
    EXPECT_NEAR(*mi250.tensor.fp16Fp32Acc, 2 * *mi210.tensor.fp16Fp32Acc, 0.2);
    EXPECT_NEAR(*cat().require("MI100").fp32Tflops, 120 * 1.502 * 128 / 1000, 0.05);
    EXPECT_NEAR(*mi210.fp32Tflops, 104 * 1.7 * 128 / 1000, 0.05);
}

TEST(BuiltinCatalog, RdnaFourDoublesTheMatrixRatePerCuAndTheR9700IsFlaggedLowConfidence) {
    // RDNA 4's 1024 dense FP16 matrix FLOPs per CU per clock against RDNA 3's 512 (AMD's 1,557 TOPS
    // of sparse INT4 for the RX 9070 XT); the R9700's datasheet was not found, so it says so.
    const Gpu& xt = cat().require("RX 9070 XT");
    const Gpu& r9700 = cat().require("R9700");
    const Gpu& xtx = cat().require("RX 7900 XTX");
    const auto perCuPerGhz = [](const Gpu& g, double ghz) {
        return *g.tensor.fp16Fp32Acc * 1000.0 / *g.computeUnits / ghz;
    };
    EXPECT_NEAR(perCuPerGhz(xt, 2.97), 1024.0, 2.0);
    EXPECT_NEAR(perCuPerGhz(r9700, 2.92), 1024.0, 2.0);
    EXPECT_NEAR(perCuPerGhz(xtx, 2.5), 512.0, 2.0);
    EXPECT_NEAR(1557.0 / 8.0, *xt.tensor.fp16Fp32Acc, 0.5);
    EXPECT_EQ(xt.chip, r9700.chip);
    EXPECT_EQ(r9700.memoryGb, 32);
    EXPECT_EQ(r9700.confidence, "low");
}

TEST(BuiltinCatalog, CarriesTheSeedsKeyFigures) {
    // "The A100 GPU has 1,555 GB/s memory bandwidth vs the 900 GB/s of the V100."
    EXPECT_EQ(cat().require("A100 40GB SXM4").memoryBandwidthGbs, 1555);
    EXPECT_EQ(cat().require("V100 SXM2 32GB").memoryBandwidthGbs, 900);
    // Ada's 72 MB L2; RTX 4090 FP8 0.66 PFLOPS (FP16 accumulate) = 330 dense with FP32 accumulate.
    const Gpu& g = cat().require("RTX 4090");
    EXPECT_EQ(*g.l2CacheMb, 72);
    EXPECT_DOUBLE_EQ(*g.tensor.fp8, 330.3);
    EXPECT_NEAR(*g.tensor.fp16Fp16Acc / *g.tensor.fp16Fp32Acc, 2.0, 0.01); // GeForce half rate
    EXPECT_EQ(*g.slotWidth, 3);
    EXPECT_EQ(g.tdpW, 450);
    EXPECT_TRUE(g.asyncCopy);
    EXPECT_FALSE(g.tma);
    EXPECT_TRUE(cat().require("H100 SXM5").tma);
    EXPECT_FALSE(cat().require("GTX 1080 Ti").hasTensorCores());
}

TEST(BuiltinCatalog, WarpgroupMmaIsHopperAndDatacenterBlackwellOnly) {
    // Hopper's wgmma (sm_90a) and datacenter Blackwell's tcgen05 (sm_100a): every Hopper card and
    // the B100, B200, B300 and GB200; not the GeForce or RTX PRO Blackwell cards (sm_120), whose
    // tensor cores take warp-level mma as Ada's and Ampere's do.
    int warpgroup = 0;
    for (const auto& g : cat().gpus()) {
        const bool datacenterBlackwell = g.name == "B100" || g.name == "B200" || g.name == "B300" || g.name == "GB200";
        EXPECT_EQ(g.warpgroupMma, g.architecture == "Hopper" || datacenterBlackwell) << g.name;
        warpgroup += g.warpgroupMma ? 1 : 0;
    }
    EXPECT_EQ(warpgroup, 13);
    EXPECT_FALSE(cat().require("RTX PRO 6000 Blackwell Server Edition").warpgroupMma);
    EXPECT_TRUE(cat().require("H20").warpgroupMma);
}

TEST(BuiltinCatalog, JsonRoundTripKeepsEveryEntry) {
    for (const auto& g : cat().gpus()) {
        const Gpu back = gpuFromJson(gpuToJson(g), {"roundtrip", 0, g.name, ""});
        EXPECT_EQ(gpuToJson(back), gpuToJson(g)) << g.name;
    }
}

TEST(BuiltinCatalog, EveryBenchmarkGpuNameResolves) {
    for (const char* file : {"lambda-pytorch-train-2020-2021.csv", "llamacpp-llama3-8b-2024.csv"}) {
        const std::string path = std::string(ADVISOR_SOURCE_DIR) + "/resources/benchmarks/" + file;
        const auto table = csv::read(files::readAll(path), path);
        std::set<std::string> names;
        for (const auto& row : table.rows) {
            names.insert(row.fields.at(0));
        }
        EXPECT_FALSE(names.empty());
        for (const auto& n : names) {
            const Resolution r = cat().resolve(n);
            EXPECT_EQ(r.status, ResolveStatus::Found) << n << ": " << r.message();
        }
    }
}

struct NameCase {
    const char* query;
    const char* expectedId;
};

class ResolvesTo : public ::testing::TestWithParam<NameCase> {};

TEST_P(ResolvesTo, TheRightGpu) {
    const Resolution r = cat().resolve(GetParam().query);
    ASSERT_EQ(r.status, ResolveStatus::Found) << GetParam().query << ": " << r.message();
    EXPECT_EQ(r.gpu->id, GetParam().expectedId) << GetParam().query;
}

INSTANTIATE_TEST_SUITE_P(
    Table, ResolvesTo,
    ::testing::Values(NameCase{"RTX 4090", "rtx-4090"}, NameCase{"rtx4090", "rtx-4090"},
                      NameCase{"NVIDIA GeForce RTX 4090", "rtx-4090"}, NameCase{"rtx-4090", "rtx-4090"},
                      NameCase{"  RTX   4090 ", "rtx-4090"}, NameCase{"H100 SXM", "h100-sxm5"},
                      NameCase{"NVIDIA H100 80GB SXM5", "h100-sxm5"}, NameCase{"h100-sxm5", "h100-sxm5"},
                      NameCase{"H100 80 GB PCIe", "h100-pcie"}, NameCase{"H100 NVL", "h100-nvl"},
                      NameCase{"A100 80GB SXM", "a100-80gb-sxm4"}, NameCase{"NVIDIA A100-SXM4-80GB", "a100-80gb-sxm4"},
                      NameCase{"A100 40GB PCIe", "a100-40gb-pcie"}, NameCase{"Tesla V100 16GB", "v100-sxm2-16gb"},
                      NameCase{"Tesla V100-SXM2-32GB", "v100-sxm2-32gb"},
                      NameCase{"Tesla V100-SXM2-16GB", "v100-sxm2-16gb"}, NameCase{"V100 PCIe 16GB", "v100-pcie-16gb"}, NameCase{"RTX 3080", "rtx-3080-10gb"},
                      NameCase{"RTX 3080 Ti", "rtx-3080-ti"}, NameCase{"RTX 3060", "rtx-3060-12gb"},
                      NameCase{"AMD Radeon RX 7900 XTX", "rx-7900-xtx"}, NameCase{"AMD Instinct MI300X", "mi300x"},
                      NameCase{"L40S", "l40s"}, NameCase{"L40", "l40"}, NameCase{"A10", "a10"},
                      NameCase{"Quadro RTX 8000 NVLink", "quadro-rtx-8000"}, NameCase{"A6000 Ada", "rtx-6000-ada"},
                      NameCase{"RTX Titan", "titan-rtx"}, NameCase{"Intel Arc A770", "arc-a770-16gb"},
                      NameCase{"GB200", "gb200"}, NameCase{"B200", "b200"}, NameCase{"H100 HBM3", "h100-sxm5"},
                      // Lambda's 2022-23 tables: PCIe generation and host prefix are not part of the name.
                      NameCase{"H100 80GB PCIe Gen5", "h100-pcie"},
                      NameCase{"LambdaCloud H100 80GB PCIe Gen5", "h100-pcie"}, NameCase{"H100 PCIe Gen 5", "h100-pcie"},
                      NameCase{"LambdaCloud A10", "a10"}, NameCase{"Lambda Cloud A100 40GB PCIe", "a100-40gb-pcie"},
                      NameCase{"LambdaCloud V100 16GB", "v100-sxm2-16gb"}, NameCase{"A6000", "rtx-a6000"},
                      // Lambda's later result folders: 1xB200_192GB, H200_140GB_SXM, 1xGH200_96GB.
                      NameCase{"B200 192GB", "b200"}, NameCase{"H200 140GB SXM", "h200-sxm"},
                      NameCase{"GH200 96GB", "gh200"},
                      // llama.cpp tables write GeForce cards by number and memory.
                      NameCase{"4090 24GB", "rtx-4090"}, NameCase{"3080 Ti 12GB", "rtx-3080-ti"},
                      NameCase{"4070 Ti Super", "rtx-4070-ti-super"}, NameCase{"1080 Ti", "gtx-1080-ti"},
                      NameCase{"3070 8GB", "rtx-3070"}, NameCase{"NVIDIA RTX 5000 Ada Generation", "rtx-5000-ada"},
                      // nvidia-smi and OpenCL device names.
                      NameCase{"NVIDIA RTX 4000 Ada Generation", "rtx-4000-ada"},
                      NameCase{"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "rtx-pro-6000-blackwell"},
                      NameCase{"Intel(R) Arc(TM) B580 Graphics", "arc-b580"}, NameCase{"Tesla T4", "t4"},
                      NameCase{"NVIDIA H100 80GB HBM3", "h100-sxm5"}, NameCase{"NVIDIA A100-PCIE-40GB", "a100-40gb-pcie"},
                      // Cards that benchmark tables name and that must not fall to a near neighbour.
                      NameCase{"NVIDIA GH200 480GB", "gh200"}, NameCase{"TITAN V", "titan-v"},
                      NameCase{"NVIDIA TITAN V", "titan-v"}, NameCase{"RTX 4070 SUPER", "rtx-4070-super"},
                      NameCase{"RTX 4070", "rtx-4070"}, NameCase{"4070", "rtx-4070"}, NameCase{"A30", "a30"},
                      NameCase{"NVIDIA A30", "a30"}, NameCase{"Tesla P100", "tesla-p100-pcie-16gb"},
                      NameCase{"Tesla P100-PCIE-16GB", "tesla-p100-pcie-16gb"}, NameCase{"Tesla P40", "tesla-p40"},
                      NameCase{"P40", "tesla-p40"},
                      // The V100S and the export variants, as nvidia-smi writes them.
                      NameCase{"Tesla V100S-PCIE-32GB", "v100s-pcie-32gb"}, NameCase{"V100S", "v100s-pcie-32gb"},
                      NameCase{"Tesla V100-PCIE-32GB", "v100-pcie-32gb"},
                      NameCase{"NVIDIA A800-SXM4-80GB", "a800-80gb-sxm4"},
                      NameCase{"NVIDIA A800 80GB PCIe", "a800-80gb-pcie"},
                      NameCase{"NVIDIA H800 80GB HBM3", "h800-sxm5"}, NameCase{"NVIDIA H800 PCIe", "h800-pcie"},
                      // The hardware guide's eBay Pascal cards; a bare number is the GeForce card.
                      NameCase{"NVIDIA GeForce GTX 1080", "gtx-1080"}, NameCase{"1080", "gtx-1080"},
                      NameCase{"GTX 1080 Ti", "gtx-1080-ti"}, NameCase{"GTX 1070", "gtx-1070"},
                      NameCase{"1070 Ti", "gtx-1070-ti"},
                      // The Super refresh, the full GP102 and the smaller workstation cards; the cards
                      // they extend keep their names.
                      NameCase{"NVIDIA GeForce RTX 2080 SUPER", "rtx-2080-super"},
                      NameCase{"RTX 2070 SUPER", "rtx-2070-super"}, NameCase{"2060 Super", "rtx-2060-super"},
                      NameCase{"RTX 2080", "rtx-2080"}, NameCase{"2070", "rtx-2070"},
                      NameCase{"NVIDIA TITAN Xp", "titan-xp"}, NameCase{"NVIDIA RTX A4500", "rtx-a4500"},
                      NameCase{"A5500", "rtx-a5500"}, NameCase{"NVIDIA RTX A2000 12GB", "rtx-a2000-12gb"},
                      NameCase{"NVIDIA RTX 2000 Ada Generation", "rtx-2000-ada"},
                      NameCase{"RTX 4500 Ada Generation", "rtx-4500-ada"}, NameCase{"A4000", "rtx-a4000"},
                      NameCase{"GTX 1060", "gtx-1060-6gb"}, NameCase{"NVIDIA GeForce GTX 1660 Ti", "gtx-1660-ti"},
                      // Shops' "S" for Super, only after a GeForce number: L40S and V100S keep theirs.
                      NameCase{"RTX 4080S", "rtx-4080-super"}, NameCase{"4070 Ti S", "rtx-4070-ti-super"},
                      NameCase{"NVIDIA GeForce RTX 2080S", "rtx-2080-super"}, NameCase{"RTX 4070 S", "rtx-4070-super"},
                      NameCase{"NVIDIA L40S", "l40s"},
                      // The RTX PRO 6000's server card is its own entry; the bare name stays the workstation card.
                      NameCase{"NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000-blackwell-server"},
                      NameCase{"RTX PRO 6000 Server Edition", "rtx-pro-6000-blackwell-server"},
                      NameCase{"RTX PRO 6000", "rtx-pro-6000-blackwell"},
                      // China's D edition is its own card; the plain number stays the RTX 4090.
                      NameCase{"NVIDIA GeForce RTX 4090 D", "rtx-4090-d"}, NameCase{"RTX 4090D", "rtx-4090-d"},
                      NameCase{"4090D", "rtx-4090-d"}, NameCase{"4090", "rtx-4090"},
                      NameCase{"NVIDIA GeForce RTX 3070 Ti", "rtx-3070-ti"}, NameCase{"3070", "rtx-3070"},
                      NameCase{"AMD Radeon RX 7900 XT", "rx-7900-xt"}, NameCase{"RX 7900 XTX", "rx-7900-xtx"}));

TEST(NameResolution, AmbiguousNamesListTheirCandidates) {
    const Resolution r = cat().resolve("A100");
    ASSERT_EQ(r.status, ResolveStatus::Ambiguous);
    EXPECT_EQ(r.candidates.size(), 4u);
    EXPECT_EQ(r.message(), "'A100' is ambiguous; it matches A100 40GB PCIe, A100 40GB SXM4, A100 80GB PCIe, "
                           "A100 80GB SXM4. Add the memory size or form (for example '80GB' or 'SXM') or "
                           "use the full name");
    EXPECT_EQ(cat().resolve("H100").status, ResolveStatus::Ambiguous);
    EXPECT_EQ(cat().resolve("A100 80GB").candidates.size(), 2u);
    EXPECT_EQ(cat().resolve("V100").status, ResolveStatus::Ambiguous);
    EXPECT_EQ(cat().resolve("V100 PCIe").status, ResolveStatus::Ambiguous);
    // An export variant is never taken for the card it was cut from, nor picked among its forms.
    EXPECT_EQ(cat().resolve("H800").candidates.size(), 2u);
    EXPECT_EQ(cat().resolve("A800").candidates.size(), 2u);
    const Resolution h100 = cat().resolve("H100 SXM");
    ASSERT_EQ(h100.status, ResolveStatus::Found);
    EXPECT_EQ(h100.gpu->id, "h100-sxm5");
}

TEST(NameResolution, BareNumbersOnlyStandForGeForceCards) {
    // Workstation numbers (4000, 6000) name several cards; a bare one is never guessed.
    EXPECT_EQ(cat().resolve("6000").status, ResolveStatus::NotFound);
    EXPECT_EQ(cat().resolve("4000").status, ResolveStatus::NotFound);
    // A GeForce number with a memory size the card does not have is not silently another card.
    EXPECT_EQ(cat().resolve("3060 8GB").status, ResolveStatus::NotFound);
    EXPECT_EQ(cat().resolve("3080 20GB").status, ResolveStatus::NotFound);
}

TEST(NameResolution, UnknownNamesSuggestNeighbours) {
    const Resolution r = cat().resolve("RTX 4090 Ultra");
    EXPECT_EQ(r.status, ResolveStatus::NotFound);
    ASSERT_FALSE(r.candidates.empty());
    EXPECT_EQ(r.candidates.front()->id, "rtx-4090");
    EXPECT_EQ(cat().resolve("").status, ResolveStatus::NotFound);
    EXPECT_EQ(cat().resolve("NVIDIA").status, ResolveStatus::NotFound);
    EXPECT_EQ(cat().resolve("RTX 4090 48GB").status, ResolveStatus::NotFound); // no such variant
    EXPECT_EQ(cat().resolve("RTX 4090 NVLink").status, ResolveStatus::NotFound); // no NVLink on Ada GeForce
    // Vendor decorations are ignored, variant words are not: the 300 W Max-Q is not the 600 W card,
    // and the 600 W card's short name stays its own.
    const Resolution maxQ = cat().resolve("NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition");
    ASSERT_EQ(maxQ.status, ResolveStatus::Found);
    EXPECT_EQ(maxQ.gpu->id, "rtx-pro-6000-blackwell-max-q");
    EXPECT_EQ(maxQ.gpu->tdpW, 300);
    for (const char* workstation : {"RTX PRO 6000", "NVIDIA RTX PRO 6000 Blackwell"}) {
        const Resolution six = cat().resolve(workstation);
        ASSERT_EQ(six.status, ResolveStatus::Found) << workstation;
        EXPECT_EQ(six.gpu->id, "rtx-pro-6000-blackwell") << workstation;
    }
    EXPECT_EQ(cat().resolve("RTX PRO 6000 Max-Q 48GB").status, ResolveStatus::NotFound);
    // Cut-down or different-memory siblings of catalog cards do not fall onto them.
    for (const char* sibling :
         {"GTX 1660", "GTX 1660 Super", "GTX 1060 3GB", "RTX 3060 8GB", "RTX 2060 12GB", "RTX 4060S", "RTX 4090D 48GB"}) {
        EXPECT_EQ(cat().resolve(sibling).status, ResolveStatus::NotFound) << sibling;
    }
}

TEST(BuiltinCatalog, VendorsAreMatchedInAnyCaseAndUnknownOnesListTheKnown) {
    EXPECT_EQ(cat().requireVendor("nvidia"), "NVIDIA");
    EXPECT_EQ(cat().requireVendor("Amd"), "AMD");
    try {
        cat().requireVendor("Nvidea", "--vendor");
        FAIL() << "an unknown vendor was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("--vendor"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("vendors: NVIDIA, AMD, Intel"), std::string::npos) << e.what();
    }
}

TEST(NameResolution, NvlinkTokenIsReported) {
    const Resolution r = cat().resolve("RTX 2080 Ti NVLink");
    ASSERT_EQ(r.status, ResolveStatus::Found);
    EXPECT_TRUE(r.nvlinkRequested);
    EXPECT_FALSE(cat().resolve("RTX 2080 Ti").nvlinkRequested);
}

// A minimal valid entry, then broken variants of it.
const char* kEntry = R"({"id": "test-gpu", "name": "Test GPU", "vendor": "NVIDIA", "segment": "consumer",
  "architecture": "Ada", "launch_year": 2023,
  "memory": {"size_gb": 24, "type": "GDDR6X", "bandwidth_gbs": 1000},
  "compute": {"tensor_cores": "4th gen", "fp32_tflops": 80},
  "tensor_tflops_dense": {"fp16_fp32acc": 160},
  "power": {"tdp_w": 450}, "board": {"form": "pcie", "slot_width": 3}})";

std::string catalogError(const std::string& entryJson) {
    try {
        Catalog::fromJson(R"({"gpus": [)" + std::string(kEntry) + "," + entryJson + "]}", "gpus.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string withReplaced(const std::string& from, const std::string& to) {
    std::string s = kEntry;
    s.replace(s.find(from), from.size(), to);
    // make ids and names unique so only the intended problem remains
    s.replace(s.find("\"test-gpu\""), 10, "\"test-gpu-2\"");
    s.replace(s.find("\"Test GPU\""), 10, "\"Test GPU 2\"");
    return s;
}

TEST(CatalogValidation, ErrorsNameTheEntryAndField) {
    // Entry 2 starts on line 6: kEntry spans lines 1-6.
    EXPECT_EQ(catalogError(withReplaced("\"bandwidth_gbs\": 1000", "\"bandwidth_gbs\": -1")),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'memory.bandwidth_gbs': must be greater than zero, got -1");
    EXPECT_EQ(catalogError(withReplaced("\"size_gb\": 24, ", "")),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'memory.size_gb': is missing; a positive number is required");
    EXPECT_EQ(catalogError(withReplaced("\"tdp_w\": 450", "\"tdp_w\": \"450W\"")),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'power.tdp_w': must be a number, got string");
    EXPECT_EQ(catalogError(withReplaced("\"segment\": \"consumer\"", "\"segment\": \"gaming\"")),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'segment': must be one of consumer, workstation, "
              "datacenter; got 'gaming'");
    EXPECT_EQ(catalogError(withReplaced("\"slot_width\": 3", "\"slot_width\": 2.5")),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'board.slot_width': must be a whole number, got 2.5");
    EXPECT_EQ(catalogError(withReplaced("\"launch_year\": 2023", "\"launch_year\": 1800")),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'launch_year': must be between 1990 and 2100, got 1800");
}

TEST(CatalogValidation, ACompleteSystemNeedsNoSlotsAndAPeerMustExist) {
    // A complete computer (form "system") has no slot width; an unknown form lists "system".
    std::string system = withReplaced("\"form\": \"pcie\", \"slot_width\": 3", "\"form\": \"system\"");
    EXPECT_EQ(catalogError(system), "");
    EXPECT_EQ(catalogError(withReplaced("\"form\": \"pcie\"", "\"form\": \"box\"")),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'board.form': must be one of pcie, sxm, sxm2, sxm4, sxm5, "
              "oam, superchip, system; got 'box'");
    // A configuration peer names another GPU of the catalog, by id.
    const std::string peer = "\"fp32_tflops\": 80, \"configuration_peer\": ";
    EXPECT_EQ(catalogError(withReplaced("\"fp32_tflops\": 80", peer + "\"test-gpu\"")), "");
    EXPECT_EQ(catalogError(withReplaced("\"fp32_tflops\": 80", peer + "\"rtx-5070\"")),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'compute.configuration_peer': 'rtx-5070' is not the id of "
              "another NVIDIA GPU in this catalog");
    EXPECT_NE(catalogError(withReplaced("\"fp32_tflops\": 80", peer + "\"test-gpu-2\"")), ""); // itself
    // A card that must not anchor its chip's clock says why.
    const std::string notAnchor = "\"fp32_tflops\": 80, \"not_a_clock_anchor\": ";
    EXPECT_EQ(catalogError(withReplaced("\"fp32_tflops\": 80", notAnchor + "\"its power feeds GDDR6X\"")), "");
    EXPECT_EQ(catalogError(withReplaced("\"fp32_tflops\": 80", notAnchor + "\" \"")),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'compute.not_a_clock_anchor': must say why the card does "
              "not anchor its chip's clock");
}

TEST(CatalogValidation, ModelChecksNameAChartMetricAndSaySomething) {
    // What measurements of a GPU said about the model, by metric: only the canonical metric names
    // (a prediction looks the note up by them), each with something to say.
    const auto with = [&](const std::string& value) {
        return catalogError(withReplaced("\"power\": ", "\"model_checks\": " + value + ", \"power\": "));
    };
    EXPECT_EQ(with(R"({"llm-decode": "runs: the model 5% above"})"), "");
    EXPECT_EQ(with(R"({"16bit-training": "x"})"),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'model_checks.16bit-training': is not a metric: use "
              "int8-inference, fp16-inference, fp16-training, fp32-training, llm-decode or llm-prefill");
    EXPECT_EQ(with(R"({"llm-prefill": "  "})"),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'model_checks.llm-prefill': must say what measurements of "
              "the GPU showed against the model");
    EXPECT_NE(with(R"({"llm-prefill": 3})").find("field 'model_checks.llm-prefill'"), std::string::npos);
    EXPECT_EQ(with(R"(["llm-decode"])"),
              "gpus.json:6: entry 2 ('Test GPU 2'): field 'model_checks': must be an object of metric name to what "
              "measurements of the GPU said");
    // Shipped entries carry them (the two complete computers), and they survive a JSON round trip.
    const Gpu& strix = Catalog::builtin().require("Ryzen AI Max+ 395");
    ASSERT_EQ(strix.modelChecks.size(), 2u);
    EXPECT_EQ(gpuFromJson(gpuToJson(strix), {"roundtrip", 0, strix.name, ""}).modelChecks, strix.modelChecks);
}

TEST(CatalogValidation, EveryBadEntryIsReportedAtItsLine) {
    // Only the first bad entry was reported, without a line.
    const std::string text = "{\"gpus\": [\n" + withReplaced("\"launch_year\": 2023", "\"launch_year\": 1800") +
                             ",\n" + std::string(kEntry) + ",\n" +
                             withReplaced("\"tdp_w\": 450", "\"tdp_w\": 0") + "]}";
    try {
        Catalog::fromJson(text, "gpus.json");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        std::vector<std::string> got;
        for (const auto& p : e.problems()) {
            got.push_back(p.describe());
        }
        // Entry 1 starts on line 2, entry 2 on line 8, entry 3 on line 14 (each entry is 6 lines).
        EXPECT_EQ(got, (std::vector<std::string>{
                           "gpus.json:2: entry 1 ('Test GPU 2'): field 'launch_year': must be between 1990 and 2100, got 1800",
                           "gpus.json:14: entry 3 ('Test GPU 2'): field 'power.tdp_w': must be greater than zero, got 0"}));
    }
}

TEST(CatalogValidation, DuplicatesAndSyntaxErrorsAreReported) {
    EXPECT_EQ(catalogError(kEntry), "gpus.json:6: entry 2 ('Test GPU'): field 'id': id 'test-gpu' is used twice");
    std::string sameName = kEntry;
    sameName.replace(sameName.find("\"test-gpu\""), 10, "\"other\"");
    EXPECT_EQ(catalogError(sameName),
              "gpus.json:6: entry 2 ('Test GPU'): field 'name': 'Test GPU' is already the name or alias of Test GPU");
    try {
        Catalog::fromJson("{\"gpus\": [", "gpus.json");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("gpus.json:1: not valid JSON: parse error"), std::string::npos) << e.what();
    }
    try { // found by fuzzing: a number too large for a double is refused, not a crash
        Catalog::fromJson("{\"gpus\": [1e999]}", "gpus.json");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "gpus.json: not valid JSON: number overflow parsing '1e999'");
    }
    EXPECT_THROW(Catalog::fromJson(R"({"gpus": []})", "gpus.json"), InputError);
}

} // namespace
} // namespace advisor
