#include "prices/cloud_offer.h"

#include "catalog/catalog.h"
#include "common/text.h"

#include <algorithm>
#include <map>

namespace advisor {

std::optional<CloudOffer> validateCloudOffer(const CloudOfferInput& in, const Catalog& catalog, const Date& today,
                                             const InputLocation& where, std::vector<InputProblem>& problems) {
    const size_t before = problems.size();
    const auto bad = [&](const char* field, const std::string& why) {
        InputLocation l = where;
        l.field = field;
        problems.push_back({l, why});
    };
    const auto text = [&](const std::string& v, const char* field, size_t max, bool required) {
        if (text::firstInvalidUtf8(v) || text::hasControlCharacters(v)) {
            bad(field, "is not valid text");
            return std::string();
        }
        const std::string t(text::trim(v));
        if (required && t.empty()) {
            bad(field, "is empty");
        } else if (t.size() > max) {
            bad(field, "is longer than " + std::to_string(max) + " bytes");
        }
        return t;
    };
    const auto money = [&](const std::string& v, const char* field, bool required) -> std::optional<double> {
        const std::string_view t = text::trim(v);
        if (t.empty()) {
            if (required) {
                bad(field, "is empty; an hourly price in USD is required");
            }
            return std::nullopt;
        }
        const auto n = text::parseNumber(t);
        if (!n.value) {
            bad(field, text::describeNumberError(n.error, t));
            return std::nullopt;
        }
        if (*n.value <= 0 || *n.value > 10000) {
            bad(field, "must be more than 0 and at most 10,000 USD per hour, got " + text::quoteForMessage(t));
            return std::nullopt;
        }
        return n.value;
    };
    CloudOffer o;
    o.provider = text(in.provider, "provider", 100, true);
    o.instance = text(in.instance, "instance_or_sku", 200, false);
    o.gpuName = text(in.gpu, "gpu", 200, true);
    if (!o.gpuName.empty()) {
        const Resolution r = catalog.resolve(o.gpuName);
        if (r.status == ResolveStatus::Found) {
            o.gpuId = r.gpu->id;
        }
    }
    const auto count = text::parseInteger(in.gpuCount);
    if (text::trim(in.gpuCount).empty()) {
        o.gpuCount = 1;
    } else if (!count || *count < 1 || *count > 64) {
        bad("gpu_count", "must be a whole number from 1 to 64, got " + text::quoteForMessage(in.gpuCount));
    } else {
        o.gpuCount = static_cast<int>(*count);
    }
    if (!text::trim(in.gpuMemoryGb).empty()) {
        const auto m = text::parseNumber(in.gpuMemoryGb);
        if (!m.value || *m.value <= 0 || *m.value > 10000) {
            bad("gpu_memory_gb", "must be a positive number of GB, got " + text::quoteForMessage(in.gpuMemoryGb));
        } else {
            o.gpuMemoryGb = m.value;
        }
    }
    if (const auto v = money(in.onDemand, "on_demand_usd_per_hour", true)) {
        o.onDemandUsdPerHour = *v;
    }
    o.spotUsdPerHour = money(in.spot, "spot_usd_per_hour", false);
    o.region = text(in.region, "region", 100, false);
    const std::string_view d = text::trim(in.date);
    if (d.empty()) {
        o.observed = today;
    } else if (const auto parsed = Date::parse(d)) {
        if (isInFuture(*parsed, today)) {
            bad("observed_date", "is in the future (" + std::string(d) + "; today is " + today.toString() + ")");
        }
        o.observed = *parsed;
    } else {
        bad("observed_date", "is not a date: " + text::quoteForMessage(d) + "; use YYYY-MM-DD or YYYY-MM");
    }
    o.sourceUrl = text(in.sourceUrl, "source_url", 2000, false);
    o.note = text(in.note, "note", 4000, false);
    if (problems.size() != before) {
        return std::nullopt;
    }
    return o;
}

std::string observationKey(const CloudOffer& o) {
    std::string k;
    for (const std::string* s : {&o.provider, &o.instance, &o.gpuName, &o.region, &o.sourceUrl, &o.note}) {
        k += *s;
        k += '\x1f';
    }
    for (const auto& n : {std::optional<double>(o.gpuCount), o.gpuMemoryGb, std::optional<double>(o.onDemandUsdPerHour),
                          o.spotUsdPerHour}) {
        k += n ? text::formatDoubleExact(*n) : "-";
        k += '\x1f';
    }
    return k + o.observed.toString();
}

OfferGpu offerGpu(const CloudOffer& offer, const Catalog& catalog) {
    if (offer.gpuId) {
        if (const Gpu* g = catalog.findById(*offer.gpuId)) {
            return {g, ""};
        }
    }
    const Resolution r = catalog.resolve(offer.gpuName);
    if (r.status == ResolveStatus::Found) {
        return {r.gpu, ""};
    }
    if (r.status == ResolveStatus::NotFound || r.candidates.empty()) {
        return {nullptr, "'" + offer.gpuName + "' is not in the catalog"};
    }
    // Eight or more GPUs in one server are an HGX board of SXM modules.
    constexpr int kHgxGpus = 8;
    const Gpu* chosen = r.candidates.front();
    if (offer.gpuCount >= kHgxGpus) {
        const auto sxm = std::find_if(r.candidates.begin(), r.candidates.end(),
                                      [](const Gpu* g) { return g->form == FormFactor::Sxm; });
        if (sxm != r.candidates.end()) {
            chosen = *sxm;
        }
    }
    std::vector<std::string> names;
    for (const Gpu* g : r.candidates) {
        names.push_back(g->name);
    }
    return {chosen, "'" + offer.gpuName + "' can be " + text::join(names, " or ") + "; assumed " + chosen->name +
                        (offer.gpuCount >= kHgxGpus && chosen->form == FormFactor::Sxm ? " (8-GPU servers use SXM modules)"
                                                                                        : "")};
}

Date newestObservation(const std::vector<CloudOffer>& offers) {
    Date newest;
    for (const auto& o : offers) {
        newest = std::max(newest, o.observed);
    }
    return newest;
}

std::string offerAgeNote(const CloudOffer& offer, const Date& newest) {
    if (!isOverAYearBefore(offer.observed, newest)) {
        return {};
    }
    return "the offer was last seen " + offer.observed.toString() + ", over a year before the newest offer (" +
           newest.toString() + "): check today's price";
}

std::vector<CloudOffer> currentOffers(const std::vector<CloudOffer>& offers) {
    const auto key = [](const CloudOffer& o) {
        // A region is a different place to rent (prices differ between regions).
        return text::toLower(o.provider) + '\n' + text::toLower(o.instance) + '\n' + o.gpuId.value_or(o.gpuName) +
               '\n' + std::to_string(o.gpuCount) + '\n' + text::toLower(o.region);
    };
    std::map<std::string, Date> newest;
    for (const auto& o : offers) {
        auto [it, inserted] = newest.emplace(key(o), o.observed);
        if (!inserted && it->second < o.observed) {
            it->second = o.observed;
        }
    }
    std::vector<CloudOffer> out;
    for (const auto& o : offers) {
        auto it = newest.find(key(o));
        if (it != newest.end() && it->second == o.observed) {
            out.push_back(o);
            newest.erase(it); // one per key, even when two share the newest date
        }
    }
    return out;
}

} // namespace advisor
