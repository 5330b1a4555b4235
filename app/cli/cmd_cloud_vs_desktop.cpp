// `gpu-advisor cloud-vs-desktop`: when buying a desktop pays off against renting in the cloud.
#include "advisor/cheapest_offer.h"
#include "calc/cloud_vs_desktop.h"
#include "calc/presets.h"
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/perf_options.h"
#include "common/format.h"
#include "common/text.h"
#include "perf/model.h"
#include "value/gpu_price.h"

#include <ostream>

namespace advisor::cli {
namespace {

/// A number or a preset id (e.g. --utilization phd-cluster).
std::optional<double> numberOrPreset(const Args& args, const std::string& name, const std::vector<calc::Preset>& presets) {
    const auto v = args.value(name);
    if (!v) {
        return std::nullopt;
    }
    if (const auto p = calc::findPreset(presets, *v)) {
        return p->value;
    }
    // --utilization 15% is 0.15, as its presets are fractions.
    const auto n = name == "utilization" ? text::parseFraction(*v) : text::parseNumber(*v);
    if (!n.value) {
        std::vector<std::string> ids;
        for (const auto& p : presets) {
            ids.push_back(p.id);
        }
        throw UsageError("--" + name + " must be a number or one of " + text::join(ids, ", ") + "; got '" + *v + "'");
    }
    return n.value;
}

struct SpeedComparison {
    const Gpu* desktop = nullptr; ///< --desktop-gpu, if given
    const Gpu* cloud = nullptr;   ///< --cloud-gpu, else the offer's GPU, else the desktop's
    double ratio = 1.0;           ///< work of one desktop GPU in GPU-hours of the cloud GPU
    std::string basis = "same work per GPU-hour assumed (no --desktop-gpu given)";
};

// With a desktop GPU, the work per hour is compared with the model: against --cloud-gpu, else
// the offer's GPU, else the same GPU (so only the GPU counts differ). Speed options without a
// desktop GPU, or LLM options without an LLM metric, are refused rather than ignored.
SpeedComparison compareSpeeds(Context& ctx, const Args& args, const std::optional<CloudOffer>& offer) {
    SpeedComparison c;
    const PerfOptions perf = perfOptions(args, GpuSetup::One);
    if (const auto name = args.value("desktop-gpu")) {
        c.desktop = &ctx.catalog().require(*name, "--desktop-gpu");
    }
    if (const auto name = args.value("cloud-gpu")) {
        c.cloud = &ctx.catalog().require(*name, "--cloud-gpu");
    }
    const bool llmOptions = hasLlmOptions(args);
    if (c.desktop == nullptr) {
        if (c.cloud != nullptr || perf.metric || args.has("workload") || args.has("batch") || llmOptions) {
            throw UsageError("--cloud-gpu, --metric and the workload options compare speeds with the model; "
                             "give --desktop-gpu too");
        }
        return c;
    }
    refuseLlmOptionsWithoutLlmMetric(args, perf);
    std::string assumption; // how an offer's ambiguous GPU name was read
    if (c.cloud == nullptr) {
        if (!offer) {
            c.cloud = c.desktop;
        } else {
            const OfferGpu og = offerGpu(*offer, ctx.catalog());
            if (og.gpu == nullptr) {
                throw UsageError("the GPU of offer " + std::to_string(offer->id) + " ('" + offer->gpuName +
                                 "') is not in the catalog; give --cloud-gpu NAME to compare speeds");
            }
            c.cloud = og.gpu;
            assumption = og.assumption;
        }
    }
    const perf::PerfModel model(ctx.catalog());
    perf::PerfQuery q = perf.query;
    q.metric = perf.metric.value_or(perf::Metric::Fp16Training);
    c.ratio = calc::workRatio(model, *c.desktop, 1, *c.cloud, 1, q);
    if (c.cloud == c.desktop) {
        c.basis = "the same GPU (" + c.desktop->name + ") on the desk and in the cloud";
    } else {
        c.basis = "performance model, " + std::string(perf::toString(q.metric)) +
                  (perf::isLlm(q.metric) ? "" : " " + std::string(perf::toString(q.workload))) + ": one " +
                  c.desktop->name + " does the work of " + format::number(c.ratio, 2) + " " + c.cloud->name;
    }
    if (!assumption.empty()) {
        c.basis += " (" + assumption + ")";
    }
    return c;
}

int cloudVsDesktop(Context& ctx, const Args& args) {
    args.expectPositionals(0, "");
    const Settings settings = ctx.settings();
    calc::CloudVsDesktopInput in;
    in.cpuWatts = args.number("cpu-watts").value_or(settings.cpuWatts);
    in.utilization = numberOrPreset(args, "utilization", calc::utilizationPresets()).value_or(settings.utilization);
    in.kwhPriceUsd = args.number("kwh-price").value_or(settings.electricityUsdPerKwh);
    in.years = args.number("years").value_or(settings.years);
    in.resaleFraction = args.number("resale-fraction");
    in.gridKgCo2PerKwh = numberOrPreset(args, "grid", calc::gridIntensityPresets()).value_or(settings.gridKgCo2ePerKwh);
    const int desktopGpus = args.integer("desktop-gpus", 1, 64).value_or(1);
    int cloudGpus = args.integer("cloud-gpus", 1, 64).value_or(1);

    // An offer brings its own price and GPU count.
    args.refuseTogether({"offer"}, {"cloud-hourly", "cloud-gpus"});
    if (args.has("spot") && !args.has("offer")) {
        throw UsageError("--spot picks an offer's spot price; give --offer ID (or the spot price as --cloud-hourly)");
    }
    std::string offerText;
    std::string offerAge; // said when the offer is over a year older than the newest
    std::optional<CloudOffer> offer;
    std::string offerChoice; // why this offer, when the program chose it
    // With a desktop GPU and no price, the offer that does the same work for least per hour.
    const bool cheapest = args.value("offer") == "cheapest" || (!args.has("offer") && !args.has("cloud-hourly") &&
                                                                args.has("desktop-gpu"));
    if (cheapest) {
        if (!args.has("desktop-gpu")) {
            throw UsageError("--offer cheapest compares offers for a desktop's work; give --desktop-gpu too");
        }
        if (args.has("spot")) {
            throw UsageError("--offer cheapest chooses by on-demand price; give an offer id to use its spot price");
        }
        const Gpu& desktop = ctx.catalog().require(*args.value("desktop-gpu"), "--desktop-gpu");
        const PerfOptions options = perfOptions(args, GpuSetup::One);
        perf::PerfQuery work = options.query;
        work.metric = options.metric.value_or(perf::Metric::Fp16Training);
        const double memoryGb = desktop.memoryGb * desktopGpus;
        const perf::PerfModel model(ctx.catalog());
        const auto choice = advice::cheapestCloudFor(ctx.catalog(), model, ctx.db().cloudOffers(), work, memoryGb);
        if (!choice.offer) {
            throw InputError({"--offer", 0, "", ""}, "no cloud offer's GPUs hold the desktop's " +
                                                         format::gigabytes(memoryGb) + "; give --cloud-hourly");
        }
        offer = choice.offer;
        offerChoice = "chosen: the offer that does this work (" + std::string(perf::toString(work.metric)) +
                      ") for least per hour with at least " + format::gigabytes(memoryGb) + " of GPU memory" +
                      (choice.staleLeftOut > 0 ? ", of those seen within a year of the newest (" +
                                                     choice.newestObserved.toString() + ")"
                                               : "") +
                      "; --offer ID or --cloud-hourly picks another";
    } else if (const auto offerId = args.value("offer")) {
        const auto id = text::parseInteger(*offerId);
        offer = id ? ctx.db().cloudOffer(*id) : std::nullopt;
        if (!offer) {
            throw InputError({"--offer", 0, "", ""}, "no cloud offer with id '" + *offerId + "'");
        }
    }
    if (offer) {
        const std::string offerId = std::to_string(offer->id);
        in.cloudHourlyUsd = args.has("spot") ? offer->spotUsdPerHour.value_or(0) : offer->onDemandUsdPerHour;
        if (args.has("spot") && !offer->spotUsdPerHour) {
            throw InputError({"--offer", 0, "", "spot"}, "offer " + offerId + " has no spot price");
        }
        cloudGpus = offer->gpuCount;
        offerText = offer->provider + " " + offer->instance + " (" + offer->gpuName + " x" +
                    std::to_string(offer->gpuCount) + ", " + offer->observed.toString() + ")";
        offerAge = offerAgeNote(*offer, newestObservation(currentOffers(ctx.db().cloudOffers())));
    } else {
        in.cloudHourlyUsd = args.requiredNumber("cloud-hourly");
    }

    const SpeedComparison speed = compareSpeeds(ctx, args, offer);
    if (speed.desktop != nullptr && !args.has("cpu-watts")) { // a complete computer's TDP holds its CPU
        in.cpuWatts = value::cpuWattsFor(*speed.desktop, in.cpuWatts);
    }
    // Without --desktop-cost, the desktop is priced as the window prices it: the desktop base
    // cost plus the GPUs at the price your price rule chooses.
    std::optional<value::PricedDesktop> priced;
    if (const auto cost = args.number("desktop-cost")) {
        in.desktopCostUsd = *cost;
    } else if (speed.desktop == nullptr) {
        throw UsageError("missing required option '--desktop-cost' (or give --desktop-gpu to price it from your prices)");
    } else {
        priced = value::priceDesktop(*speed.desktop, value::pricesOf(ctx.db().prices(), speed.desktop->id), settings,
                                     desktopGpus);
        if (!priced) {
            throw UsageError("missing required option '--desktop-cost': " + speed.desktop->name +
                             " has no USD price for the price rule '" + std::string(toString(settings.priceRule)) +
                             "' (add one with 'prices add')");
        }
        in.desktopCostUsd = priced->usd;
    }
    if (const auto w = args.number("gpu-watts")) {
        in.gpuWatts = *w;
    } else if (speed.desktop != nullptr) {
        in.gpuWatts = speed.desktop->tdpW * desktopGpus;
    } else {
        throw UsageError("missing required option '--gpu-watts' (or give --desktop-gpu to use its TDP)");
    }
    in.workRatio = speed.ratio * desktopGpus / cloudGpus;
    const auto r = calc::compareCloudAndDesktop(in);

    if (ctx.json()) {
        nlohmann::json curve = nlohmann::json::array();
        for (const auto& p : r.curve) {
            curve.push_back({{"day", p.day}, {"desktop_usd", p.desktopUsd}, {"cloud_usd", p.cloudUsd}});
        }
        ctx.printJson({{"desktop_kwh_per_year", r.desktopKwhPerYear},
                       {"desktop_electricity_per_year_usd", r.desktopElectricityPerYearUsd},
                       {"desktop_electricity_per_day_usd", r.desktopElectricityPerDayUsd},
                       {"cloud_cost_per_day_usd", r.cloudPerDayUsd},
                       {"net_desktop_cost_usd", r.netDesktopCostUsd},
                       {"break_even_days", r.breakEvenDays ? nlohmann::json(*r.breakEvenDays) : nlohmann::json(nullptr)},
                       {"never_reason", r.breakEvenDays ? nlohmann::json(nullptr) : nlohmann::json(r.neverReason)},
                       {"speed_ratio", speed.ratio},
                       {"desktop_gpu", speed.desktop ? nlohmann::json(speed.desktop->name) : nlohmann::json(nullptr)},
                       {"cloud_gpu", speed.cloud ? nlohmann::json(speed.cloud->name) : nlohmann::json(nullptr)},
                       {"speed_ratio_basis", speed.basis},
                       {"work_ratio", in.workRatio},
                       {"utilization", in.utilization},
                       {"cloud_hourly_usd", in.cloudHourlyUsd},
                       {"offer", offerText},
                       {"offer_id", offer ? nlohmann::json(offer->id) : nlohmann::json(nullptr)},
                       {"offer_choice", offerChoice.empty() ? nlohmann::json(nullptr) : nlohmann::json(offerChoice)},
                       {"offer_age_note", offerAge.empty() ? nlohmann::json(nullptr) : nlohmann::json(offerAge)},
                       {"desktop_kg_co2e_per_year", r.desktopKgCo2PerYear},
                       {"years", in.years},
                       {"desktop_cost_usd", in.desktopCostUsd},
                       {"desktop_cost_basis", priced ? nlohmann::json(priced->basis()) : nlohmann::json(nullptr)},
                       {"desktop_usd_over_years", r.overYears.desktopUsd},
                       {"cloud_usd_over_years", r.overYears.cloudUsd},
                       {"curves", curve}});
        return 0;
    }
    auto& o = ctx.out();
    o << "Desktop: " << format::money(in.desktopCostUsd) << (priced ? " (" + priced->basis() + ")" : "") << ", " << format::number(in.gpuWatts + in.cpuWatts, 0)
      << " W at " << format::percent(in.utilization, 0) << " utilization -> "
      << format::number(r.desktopKwhPerYear, 0) << " kWh/year, " << format::money(r.desktopElectricityPerYearUsd)
      << "/year at " << format::money(in.kwhPriceUsd) << "/kWh, "
      << format::number(r.desktopKgCo2PerYear, 0) << " kg CO2e/year\n";
    o << "Cloud: " << (offerText.empty() ? "" : offerText + ", ") << format::money(in.cloudHourlyUsd)
      << "/h -> " << format::money(r.cloudPerDayUsd) << " per day for the same work\n";
    if (!offerChoice.empty()) {
        o << "  " << offerChoice << '\n';
    }
    if (!offerAge.empty()) {
        o << "  note: " << offerAge << '\n';
    }
    o << "Speed: " << speed.basis << '\n';
    o << "Over " << format::trimmed(in.years, 2) << " years: desktop "
      << format::money(r.overYears.desktopUsd) << ", cloud " << format::money(r.overYears.cloudUsd) << '\n';
    if (r.breakEvenDays) {
        o << "Break-even after " << format::number(*r.breakEvenDays, 0) << " days (" <<
            format::number(*r.breakEvenDays / 365.0, 1) << " years): buy if you will use it longer than that.\n";
    } else {
        o << "Never breaks even: " << r.neverReason << ".\n";
    }
    return 0;
}

} // namespace

Command cloudVsDesktopCommand() {
    return {"cloud-vs-desktop", "when buying a desktop beats renting in the cloud",
            "Usage: gpu-advisor cloud-vs-desktop [--desktop-cost USD] (--gpu-watts W | --desktop-gpu NAME)\n"
            "         [--cpu-watts W] [--utilization F|PRESET] [--kwh-price USD] [--years N] [--resale-fraction F]\n"
            "         [--cloud-hourly USD | --offer ID|cheapest [--spot]] [--cloud-gpu NAME] [--cloud-gpus N]\n"
            "         [--desktop-gpus N] [--grid KG_PER_KWH|PRESET]\n"
            "         [--metric M] [--workload W] [--batch B]\n"
            "         [--params-billion P --weights W --context N --depth N --kv-cache T --sequences N|max\n"
            "          --min-sequence-speed T --ubatch N]\n\n"
            "Desktop electricity: (GPU W + CPU W) x utilization x 24 x 365 / 1000 kWh a year. The cloud is\n"
            "paid for the same hours of work; with --desktop-gpu the model's speed ratio (--metric, default\n"
            "fp16-training) converts hours against --cloud-gpu, else the offer's GPU, else the same GPU\n"
            "(e.g. a V100 instance vs an RTX 3090 desktop). An offer's ambiguous GPU name ('A100 40GB')\n"
            "is read as the SXM module for 8-GPU servers, else the first match, and the speed line says\n"
            "so. Break-even = (desktop cost - resale) / (cloud per day - desktop electricity per day);\n"
            "'never' when the cloud is cheaper than the electricity. With --desktop-gpu and no price, or\n"
            "with --offer cheapest, the offer is the one that does the same work for least per hour and\n"
            "holds the desktop's GPU memory, among offers seen within a year of the newest (as 'recommend').\n"
            "Utilization: a fraction or a percentage (0.15 or 15%), or a preset:\n"
            "personal-desktop-typical (7.5%), personal-desktop (15%), phd-cluster (35%),\n"
            "company-cluster (60%). Grid presets: world, germany, france, ...\n"
            "Without --desktop-cost the desktop is priced from your prices (needs --desktop-gpu): the\n"
            "settings' desktop base cost plus the GPUs at the price your price rule chooses, as the\n"
            "window's Cloud vs desktop tab fills it in. Unset options come from your settings.\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                return cloudVsDesktop(
                    ctx, Args::parse(rest, perfOptionSpecs({{"desktop-cost"}, {"gpu-watts"}, {"cpu-watts"}, {"utilization"},
                                                             {"kwh-price"}, {"years"}, {"resale-fraction"},
                                                             {"cloud-hourly"}, {"offer"}, {"spot", false},
                                                             {"cloud-gpu"}, {"desktop-gpu"}, {"cloud-gpus"},
                                                             {"desktop-gpus"}, {"grid"}},
                                                            GpuSetup::One)));
            }};
}

} // namespace advisor::cli
