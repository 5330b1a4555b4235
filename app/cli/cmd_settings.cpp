// `gpu-advisor settings list|set`: the settings that change results.
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/context.h"
#include "cli/table.h"

#include <ostream>

namespace advisor::cli {
namespace {

int list(Context& ctx) {
    const Settings s = ctx.db().settings();
    const auto kv = s.toMap();
    if (ctx.json()) {
        nlohmann::json j = nlohmann::json::object();
        for (const auto& [k, v] : kv) {
            j[k] = v;
        }
        ctx.printJson({{"settings", j}});
        return 0;
    }
    TextTable t({"SETTING", "VALUE"});
    for (const auto& k : Settings::keys()) {
        t.addRow({k, kv.at(k)});
    }
    t.print(ctx.out());
    return 0;
}

int set(Context& ctx, const Args& args) {
    args.expectPositionals(2, "a setting name and a value");
    Settings s = ctx.db().settings();
    s.set(args.positionals()[0], args.positionals()[1], ctx.db().catalog());
    ctx.db().saveSettings(s);
    const auto value = s.toMap().at(args.positionals()[0]);
    if (ctx.json()) {
        ctx.printJson({{"key", args.positionals()[0]}, {"value", value}});
    } else {
        ctx.out() << args.positionals()[0] << " = " << value << '\n';
    }
    return 0;
}

} // namespace

Command settingsCommand() {
    return {"settings", "show or change the settings that change results",
            "Usage: gpu-advisor settings list\n"
            "       gpu-advisor settings set KEY VALUE\n\n"
            "Keys: electricity_usd_per_kwh (0.175), utilization (0.15, or 15%), years (5),\n"
            "desktop_base_cost_usd (700), reference_gpu (rtx-4090), currency (USD),\n"
            "price_rule (average|newest-new|newest-used|cheapest), grid_kg_co2e_per_kwh, cpu_watts.\n",
            [](Context& ctx, const std::vector<std::string>& rest) {
                if (rest.empty()) {
                    throw UsageError("missing subcommand: list or set");
                }
                const std::vector<std::string> tail(rest.begin() + 1, rest.end());
                if (rest.front() == "list") {
                    Args::parse(tail, {}).expectPositionals(0, "");
                    return list(ctx);
                }
                if (rest.front() == "set") {
                    return set(ctx, Args::parse(tail, {}));
                }
                throw UsageError("unknown subcommand '" + rest.front() + "'; use list or set");
            }};
}

} // namespace advisor::cli
