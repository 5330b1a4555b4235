// `gpu-advisor screenshot`: the real window rendered offscreen to a PNG, without a display.
#include "cli_runner.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace advisor::testing {
namespace {

uint32_t pngDimension(const std::string& png, size_t at) {
    return (uint32_t(uint8_t(png[at])) << 24) | (uint32_t(uint8_t(png[at + 1])) << 16) |
           (uint32_t(uint8_t(png[at + 2])) << 8) | uint32_t(uint8_t(png[at + 3]));
}

TEST(ScreenshotCli, EveryPageRendersWithoutADisplay) {
    Cli cli;
    for (const char* page : {"advisor", "charts", "prices", "calculators"}) {
        const std::string out = cli.file(std::string(page) + ".png");
        const auto r = runProcess(GPU_ADVISOR_BIN,
                                  {"--db", cli.db(), "--json", "screenshot", "--page", page, "--out", out, "--width",
                                   "1300", "--height", "850"},
                                  {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY", "XDG_CONFIG_HOME=" + cli.file("config")});
        ASSERT_EQ(r.exitCode, 0) << page << ": " << r.err;
        const auto doc = nlohmann::json::parse(r.out);
        EXPECT_EQ(doc.at("page"), page);
        const std::string png = cli.read(std::string(page) + ".png");
        ASSERT_GT(png.size(), 10000u) << page; // a real picture, not an empty frame
        EXPECT_EQ(png.substr(1, 3), "PNG");
        EXPECT_GE(pngDimension(png, 16), 1300u);
        EXPECT_GE(pngDimension(png, 20), 850u);
    }
}

TEST(ScreenshotCli, AdvisorAnswersAndBadPages) {
    Cli cli;
    const auto r = cli.run({"screenshot", "--page", "advisor", "--answers", "no,yes,yes", "--budget", "1500", "--out",
                            cli.file("a.png")});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    // The window remembers that walk (it reached a leaf); --answers start again from the top.
    const auto again = cli.run({"screenshot", "--page", "advisor", "--answers", "no,yes,yes", "--budget", "1500", "--out",
                                cli.file("a2.png")});
    EXPECT_EQ(again.exitCode, 0) << again.err;
    const auto bad = cli.run({"screenshot", "--page", "settings", "--out", cli.file("b.png")});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("advisor, charts, prices, calculators"), std::string::npos) << bad.err;
    const auto wrongAnswer = cli.run({"screenshot", "--answers", "maybe", "--out", cli.file("c.png")});
    EXPECT_EQ(wrongAnswer.exitCode, 2);
    EXPECT_FALSE(std::filesystem::exists(cli.file("b.png")));
    EXPECT_FALSE(std::filesystem::exists(cli.file("c.png")));
}

} // namespace
} // namespace advisor::testing
