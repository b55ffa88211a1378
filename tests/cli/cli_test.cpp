// SPDX-License-Identifier: MIT
// End-to-end tests of convolab-cli and convolab-bench: run the built programs, check exit codes and outputs.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <chrono>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "convolab/device.hpp"
#include "convolab/filter_io.hpp"
#include "convolab/registry.hpp"

namespace {

using namespace convolab::clitest;
namespace fs = std::filesystem;

const fs::path kSource = CONVOLAB_SOURCE_DIR;
const fs::path kCoffee = kSource / "tests/data/coffee.png";
const fs::path kPresets = kSource / "resources/presets";
// The sanitizer build has no bench subcommand (CONVOLAB_CLI_BENCH=OFF, app/cli/CMakeLists.txt).
constexpr bool kHasBench = CONVOLAB_CLI_HAS_BENCH;

/// Files in `dir` (names); runProgram removes its capture files before returning.
std::set<std::string> listing(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "convolab-cli-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    m_dir = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(m_dir, ec);
  }

  Result cli(const std::vector<std::string>& args) { return runProgram(CONVOLAB_CLI_PATH, args, m_dir); }
  Result bench(const std::vector<std::string>& args) { return runProgram(CONVOLAB_BENCH_PATH, args, m_dir); }
  fs::path path(const std::string& name) const { return m_dir / name; }
  fs::path filterFile(const std::string& name, const std::string& json) {
    writeFile(path(name), json);
    return path(name);
  }
  /// `apply` with the sharpen preset and naive strategy (fast on PoCL) plus `extra` arguments.
  Result applySharpen(const fs::path& input, const fs::path& output, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{
        "apply",        "--strategy", "naive",        "--filter", (kPresets / "sharpen.json").string(),
        input.string(), "-o",         output.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  }
  /// Asserts exit 3, a message naming `named`, and no output file.
  void expectBadInput(const Result& r, const std::string& named) {
    EXPECT_EQ(r.code, 3) << r;
    EXPECT_NE(r.err.find(named), std::string::npos) << "message should name '" << named << "'\n" << r;
  }

  fs::path m_dir;
};

// ---- apply: results -------------------------------------------------------------------------------------

TEST_F(Cli, ApplySharpenMatchesOpenCVFilter2D) {
  const fs::path out = path("coffee-sharp.png");
  const Result r = applySharpen(kCoffee, out);
  ASSERT_EQ(r.code, 0) << r;
  const cv::Mat got = cv::imread(out.string(), cv::IMREAD_COLOR);
  ASSERT_FALSE(got.empty());
  const cv::Mat want =
      expectedBgr(cv::imread(kCoffee.string(), cv::IMREAD_COLOR),
                  convolab::loadFilterFile(kPresets / "sharpen.json"), cv::BORDER_REFLECT_101);
  ASSERT_EQ(got.size(), want.size());
  EXPECT_LE(maxAbsDiff(got, want), 1);
}

// Every option takes one value per occurrence: `--device cpu IN` leaves IN an input, wherever the options
// stand (before, between, after the input), in both spellings; several devices: repeat or a comma list.
TEST_F(Cli, DeviceOptionNeverSwallowsTheInputs) {
  const std::string f = (kPresets / "sharpen.json").string(), in = kCoffee.string();
  const std::vector<std::vector<std::string>> forms = {
      {"apply", "-f", f, "--device", "cpu", in, "-o"},
      {"apply", "-f", f, "--device=cpu", in, "-o"},
      {"apply", "--device", "cpu", "-f", f, in, "-o"},
      {"apply", "-f", f, in, "--device", "cpu", "-o"},
      {"apply", "-f", f, "-d", "cpu,cpu", in, "-o"},
      {"apply", "-f", f, "-d", "cpu", "-d", "cpu", in, "-o"}};
  for (std::size_t i = 0; i < forms.size(); ++i) {
    std::vector<std::string> args = forms[i];
    args.push_back(path("dev" + std::to_string(i) + ".png").string());
    const Result r = cli(args);
    EXPECT_EQ(r.code, 0) << "form " << i << ": " << r;
    EXPECT_TRUE(fs::exists(path("dev" + std::to_string(i) + ".png"))) << "form " << i;
  }
}

TEST_F(Cli, ApplyPerChannelPresetWithBorderOverrideMatchesOpenCV) {
  // colour_edges has a different matrix and an offset per channel: catches RGB/BGR mix-ups and --border.
  const fs::path out = path("edges.png");
  const fs::path preset = kPresets / "colour_edges.json";
  const Result r = cli({"apply", "-s", "naive", "-f", preset.string(), "--border", "replicate",
                        kCoffee.string(), "-o", out.string()});
  ASSERT_EQ(r.code, 0) << r;
  const cv::Mat got = cv::imread(out.string(), cv::IMREAD_COLOR);
  const cv::Mat want = expectedBgr(cv::imread(kCoffee.string(), cv::IMREAD_COLOR),
                                   convolab::loadFilterFile(preset), cv::BORDER_REPLICATE);
  EXPECT_LE(maxAbsDiff(got, want), 1);
}

TEST_F(Cli, ApplyWithDefaultStrategyOnSmallImage) {
  // The default strategy (auto) end to end, on a small crop so its measuring stays cheap.
  const cv::Mat crop = cv::imread(kCoffee.string(), cv::IMREAD_COLOR)(cv::Rect(100, 100, 40, 30)).clone();
  ASSERT_TRUE(cv::imwrite(path("crop.bmp").string(), crop));
  const fs::path out = path("crop-out.png");
  const Result r = cli(
      {"apply", "-f", (kPresets / "emboss.json").string(), path("crop.bmp").string(), "-o", out.string()});
  ASSERT_EQ(r.code, 0) << r;
  const cv::Mat want =
      expectedBgr(crop, convolab::loadFilterFile(kPresets / "emboss.json"), cv::BORDER_REFLECT_101);
  EXPECT_LE(maxAbsDiff(cv::imread(out.string(), cv::IMREAD_COLOR), want), 1);
}

// ---- apply: --force and writing nothing on failure -------------------------------------------------------

TEST_F(Cli, ExistingOutputIsKeptWithoutForce) {
  const fs::path out = path("out.png");
  writeFile(out, "precious bytes");
  const Result r = applySharpen(kCoffee, out);
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_NE(r.err.find("--force"), std::string::npos) << r;
  EXPECT_EQ(readFile(out), "precious bytes");
  EXPECT_EQ(listing(m_dir), std::set<std::string>{"out.png"});
}

TEST_F(Cli, ExistingOutputIsReplacedWithForce) {
  const fs::path out = path("out.png");
  writeFile(out, "precious bytes");
  const Result r = applySharpen(kCoffee, out, {"--force"});
  ASSERT_EQ(r.code, 0) << r;
  const cv::Mat got = cv::imread(out.string(), cv::IMREAD_COLOR);
  EXPECT_EQ(got.cols, 600);
  EXPECT_EQ(got.rows, 400);
  EXPECT_EQ(listing(m_dir), std::set<std::string>{"out.png"});
}

TEST_F(Cli, NothingIsWrittenOnFailure) {
  fs::create_directory(path("outdir"));
  const fs::path out = path("outdir") / "out.png";
  writeFile(path("broken.png"), readFile(kCoffee).substr(0, 2000));
  EXPECT_EQ(applySharpen(path("broken.png"), out).code, 3);
  EXPECT_EQ(applySharpen(kCoffee, out, {"--device", "no-such-device"}).code, 4);
  EXPECT_EQ(applySharpen(kCoffee, path("outdir") / "out.txt").code, 2);
  EXPECT_TRUE(listing(path("outdir")).empty()) << "left behind: " << *listing(path("outdir")).begin();
}

TEST_F(Cli, OutputIntoMissingFolderIsBadInput) {
  const Result r = applySharpen(kCoffee, path("no/such/folder/out.png"));
  expectBadInput(r, "no/such/folder");
}

TEST_F(Cli, UnsupportedOutputExtensionIsUsageError) {
  const Result r = applySharpen(kCoffee, path("out.txt"));
  EXPECT_EQ(r.code, 2) << r;
  EXPECT_NE(r.err.find(".txt"), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(path("out.txt")));
}

TEST_F(Cli, ImageOverThePixelLimitIsRefused) {
  const Result r = applySharpen(kCoffee, path("out.png"), {"--max-pixels", "1000"});
  expectBadInput(r, "coffee.png");
  EXPECT_NE(r.err.find("limit"), std::string::npos) << r;
}

// ---- exit code 2: usage ----------------------------------------------------------------------------------

TEST_F(Cli, UsageErrorsExitWith2) {
  EXPECT_EQ(cli({}).code, 2);
  EXPECT_EQ(cli({"frobnicate"}).code, 2);
  EXPECT_EQ(cli({"apply", "--bogus-option", kCoffee.string(), "-o", path("o.png").string()}).code, 2);
  EXPECT_EQ(applySharpen(kCoffee, path("o.png"), {"--strategy", "no-such-strategy"}).code, 2);
  EXPECT_EQ(applySharpen(kCoffee, path("o.png"), {"--border", "mirror"}).code, 2);
  EXPECT_EQ(cli({"apply", kCoffee.string(), "-o", path("o.png").string()}).code, 2) << "--filter is required";
  if (kHasBench) {
    EXPECT_EQ(cli({"bench", "--size", "64by48"}).code, 2);
    EXPECT_EQ(cli({"bench", "--strategy", "no-such-strategy", "--size", "8x8"}).code, 2);
    EXPECT_EQ(cli({"bench", "--iterations", "0"}).code, 2);
    EXPECT_EQ(cli({"bench", "--ksize", "4", "--size", "8x8"}).code, 2) << "K must be odd";
  }
  EXPECT_TRUE(listing(m_dir).empty());
}

// ---- exit code 3: bad input ------------------------------------------------------------------------------

TEST_F(Cli, MissingImage) {
  expectBadInput(applySharpen(path("nope.png"), path("o.png")), "nope.png");
}

TEST_F(Cli, ZeroByteImage) {
  writeFile(path("empty.png"), "");
  expectBadInput(applySharpen(path("empty.png"), path("o.png")), "empty.png");
}

TEST_F(Cli, TruncatedPng) {
  writeFile(path("truncated.png"), readFile(kCoffee).substr(0, 5000));
  expectBadInput(applySharpen(path("truncated.png"), path("o.png")), "truncated.png");
}

TEST_F(Cli, TextFileAsImage) {
  writeFile(path("notes.png"), "these are my notes, not a picture\n");
  expectBadInput(applySharpen(path("notes.png"), path("o.png")), "notes.png");
}

// A JPEG cut to 40% decodes "successfully" in OpenCV (the rest grey): it is a bad input, reported with how
// much was decoded, and nothing is written for it while the other files of the run go on; --accept-damaged
// filters it.
TEST_F(Cli, DamagedJpegIsBadInputUnlessAccepted) {
  std::vector<uchar> jpeg;
  ASSERT_TRUE(cv::imencode(".jpg", cv::imread(kCoffee.string()), jpeg));
  writeFile(path("cut.jpg"),
            std::string(jpeg.begin(), jpeg.begin() + static_cast<long>(jpeg.size() * 4 / 10)));
  writeFile(path("whole.jpg"), std::string(jpeg.begin(), jpeg.end()));
  fs::create_directory(path("out"));
  const Result r =
      cli({"apply", "--strategy", "naive", "--filter", (kPresets / "sharpen.json").string(),
           path("cut.jpg").string(), path("whole.jpg").string(), "-o", path("out").string() + "/"});
  expectBadInput(r, "cut.jpg");
  EXPECT_NE(r.err.find("rows decoded"), std::string::npos) << r;
  EXPECT_EQ(listing(path("out")), std::set<std::string>{"whole.jpg"}) << r;

  const Result accepted = applySharpen(path("cut.jpg"), path("cut.png"), {"--accept-damaged"});
  EXPECT_EQ(accepted.code, 0) << accepted;
  EXPECT_TRUE(fs::exists(path("cut.png")));
  EXPECT_NE(accepted.out.find("damaged"), std::string::npos) << "a note says so\n" << accepted;
}

// Decoding drops an alpha channel: the run says so, once.
TEST_F(Cli, DroppedAlphaChannelIsNotedOnce) {
  const cv::Mat bgra(20, 30, CV_8UC4, cv::Scalar(10, 20, 30, 128));
  ASSERT_TRUE(cv::imwrite(path("a.png").string(), bgra));
  ASSERT_TRUE(cv::imwrite(path("b.png").string(), bgra));
  fs::create_directory(path("out"));
  const Result r = cli({"apply", "--strategy", "naive", "--filter", (kPresets / "sharpen.json").string(),
                        path("a.png").string(), path("b.png").string(), "-o", path("out").string() + "/"});
  EXPECT_EQ(r.code, 0) << r;
  std::size_t notes = 0;
  for (std::size_t at = r.out.find("alpha channel"); at != std::string::npos;
       at = r.out.find("alpha channel", at + 1))
    ++notes;
  EXPECT_EQ(notes, 1u) << r;
}

struct BadFilterCase {
  const char* name;
  const char* json;
  const char* mentions;  ///< what the message must name besides the file
};

void PrintTo(const BadFilterCase& c, std::ostream* os) {
  *os << c.name;
}

class CliBadFilter : public Cli, public ::testing::WithParamInterface<BadFilterCase> {};

TEST_P(CliBadFilter, IsBadInputNamingFileAndField) {
  const BadFilterCase& c = GetParam();
  const fs::path f = filterFile(std::string(c.name) + ".json", c.json);
  const Result r =
      cli({"apply", "-s", "naive", "-f", f.string(), kCoffee.string(), "-o", path("o.png").string()});
  expectBadInput(r, f.filename().string());
  EXPECT_NE(r.err.find(c.mentions), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(path("o.png")));
}

INSTANTIATE_TEST_SUITE_P(
    Files, CliBadFilter,
    ::testing::Values(BadFilterCase{"malformed", R"({"matrix": [[0, 1, 0], [1, 1)", "JSON"},
                      BadFilterCase{"six_by_six",
                                    R"({"matrix": [[1,1,1,1,1,1],[1,1,1,1,1,1],[1,1,1,1,1,1],
                                                   [1,1,1,1,1,1],[1,1,1,1,1,1],[1,1,1,1,1,1]]})",
                                    "matrix"},
                      BadFilterCase{"divisor_zero", R"({"matrix": [[1]], "divisor": 0})", "divisor"},
                      BadFilterCase{"unknown_border", R"({"matrix": [[1]], "border": "mirror"})", "border"},
                      BadFilterCase{"typo_key", R"({"matirx": [[1]]})", "matirx"},
                      BadFilterCase{"empty", "", "empty"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(Cli, MissingFilterFile) {
  const Result r =
      cli({"apply", "-f", path("nope.json").string(), kCoffee.string(), "-o", path("o.png").string()});
  expectBadInput(r, "nope.json");
}

// ---- exit code 4: device ---------------------------------------------------------------------------------

TEST_F(Cli, UnknownDeviceExitsWith4) {
  const Result r = applySharpen(kCoffee, path("o.png"), {"--device", "no-such-device"});
  EXPECT_EQ(r.code, 4) << r;
  EXPECT_NE(r.err.find("no-such-device"), std::string::npos) << r;
  EXPECT_FALSE(fs::exists(path("o.png")));
}

// ---- listing commands ------------------------------------------------------------------------------------

TEST_F(Cli, StrategiesListsEveryRegistryName) {
  const Result r = cli({"strategies"});
  ASSERT_EQ(r.code, 0) << r;
  std::istringstream lines(r.out);
  std::vector<std::string> firstWords;
  for (std::string line; std::getline(lines, line);) firstWords.push_back(line.substr(0, line.find(' ')));
  EXPECT_EQ(firstWords, convolab::strategyNames());
}

TEST_F(Cli, DevicesListsAtLeastOneDevice) {
  const auto devices = convolab::listDevices();
  ASSERT_FALSE(devices.empty()) << "no OpenCL device on this machine (install pocl-opencl-icd)";
  const Result r = cli({"devices"});
  ASSERT_EQ(r.code, 0) << r;
  for (const auto& d : devices) {
    EXPECT_NE(r.out.find(d.spec()), std::string::npos) << r;
    EXPECT_NE(r.out.find(d.name), std::string::npos) << r;
  }
}

TEST_F(Cli, VersionAndHelp) {
  const Result v = cli({"--version"});
  EXPECT_EQ(v.code, 0) << v;
  EXPECT_NE(v.out.find(CONVOLAB_VERSION), std::string::npos) << v;
  const Result h = cli({"--help"});
  EXPECT_EQ(h.code, 0) << h;
  for (const char* sub : {"apply", "bench", "devices", "strategies"})
    if (kHasBench || std::string(sub) != "bench") EXPECT_NE(h.out.find(sub), std::string::npos) << sub;
}

TEST_F(Cli, BenchProgramHasNoApply) {
  const Result v = bench({"--version"});
  EXPECT_EQ(v.code, 0) << v;
  EXPECT_NE(v.out.find(CONVOLAB_VERSION), std::string::npos) << v;
  EXPECT_EQ(
      bench({"apply", "-f", (kPresets / "sharpen.json").string(), kCoffee.string(), "-o", "x.png"}).code, 2);
  EXPECT_EQ(bench({"strategies"}).code, 0);
}

// ---- bench -----------------------------------------------------------------------------------------------

TEST_F(Cli, BenchRefusesAFrameOverTheDeviceLimitBeforeAllocatingIt) {
  // 65536x65536 RGB is 12 GiB: over every test device's allocation limit. It must fail at once (exit 3),
  // not after building 12 GiB of host frames.
  const auto t0 = std::chrono::steady_clock::now();
  const Result r =
      cli({"bench", "--size", "65536x65536", "--skip-opencv", "--skip-probe", "--strategy", "naive"});
  EXPECT_EQ(r.code, 3) << r;
  EXPECT_NE(r.err.find("allocation limit"), std::string::npos) << r;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30.0);
}

TEST_F(Cli, BenchKernelLoopReportsBackToBackTimesAndTheLaunchFloor) {
  const fs::path json = path("loop.json");
  const Result r =
      cli({"bench", "--size", "32x24", "-n", "1", "-w", "1", "--strategy", "naive", "--skip-opencv",
           "--skip-probe", "--stream-frames", "0", "-k", "3", "--kernel-loop", "3", "--json", json.string()});
  ASSERT_EQ(r.code, 0) << r;
  const auto doc = nlohmann::json::parse(readFile(json));
  EXPECT_EQ(doc["config"]["k"], 3);
  const auto& loops = doc["results"][0]["kernel_loop"];
  ASSERT_EQ(loops.size(), 1u) << doc["results"][0].dump(2);
  EXPECT_EQ(loops[0]["status"], "ok");
  EXPECT_GT(loops[0]["event_ms_median"].get<double>(), 0);
  EXPECT_GT(loops[0]["span_ms_per_launch"].get<double>(), 0);
  ASSERT_EQ(doc["launch_floor"].size(), 1u);
  for (const char* key : {"empty_one_group", "empty_frame_grid", "copy_frame"})
    EXPECT_TRUE(doc["launch_floor"][0].contains(key)) << key;
}

TEST_F(Cli, BenchWritesJsonWithDocumentedKeys) {
  const fs::path json = path("bench.json"), md = path("bench.md");
  const Result r = cli({"bench", "--size", "64x48", "--iterations", "2", "--warmup", "1", "--strategy",
                        "naive", "--json", json.string(), "--markdown", md.string()});
  ASSERT_EQ(r.code, 0) << r;
  const auto doc = nlohmann::json::parse(readFile(json));
  for (const char* key : {"name", "driver", "compute_units", "clock_mhz", "peak_gflops", "peak_source"})
    EXPECT_TRUE(doc["device"].contains(key)) << "device." << key;
  ASSERT_EQ(doc["results"].size(), 1u);
  const auto& res = doc["results"][0];
  for (const char* key :
       {"strategy", "size", "filter", "kernel_ms_median", "kernel_ms_p95", "upload_ms_median",
        "download_ms_median", "frame_ms_median", "mpix_per_s", "gflops", "peak_fraction"})
    EXPECT_TRUE(res.contains(key)) << "results[0]." << key;
  EXPECT_EQ(res["strategy"], "naive");
  EXPECT_EQ(res["size"], "64x48");
  EXPECT_EQ(res["status"], "ok") << res.dump(2);
  EXPECT_GT(res["kernel_ms_median"].get<double>(), 0);
  EXPECT_LE(res["max_abs_diff"].get<int>(), 1);
  ASSERT_TRUE(doc["opencv"].is_array());
  ASSERT_FALSE(doc["opencv"].empty());
  for (const auto& c : doc["opencv"])
    for (const char* key : {"variant", "size", "ms_median", "samples", "speedup_of_ours"})
      EXPECT_TRUE(c.contains(key)) << key;
  for (const auto& c : doc["opencv"])
    EXPECT_EQ(c.value("samples", -1), 2) << c.dump();  // 64x48: far inside the budget
  EXPECT_EQ(doc["opencv"][0]["variant"], "cv_cpu_per_channel");
  EXPECT_NE(readFile(md).find("| naive |"), std::string::npos);
  EXPECT_EQ(listing(m_dir), (std::set<std::string>{"bench.json", "bench.md"}));
}

// OpenCV's OpenCL filter2D on PoCL takes seconds a call at large K (1080p here: 2.9 s at K = 31, 14 s at K =
// 63): each variant's calls stop at --opencv-budget, at least one timed, and the report says how many ran and
// why.
TEST_F(Cli, BenchCutsEachOpenCVVariantToItsBudget) {
  const fs::path json = path("bench.json"), md = path("bench.md");
  const Result r = cli({"bench", "--size", "64x48", "--iterations", "40", "--warmup", "3", "--strategy",
                        "naive", "--opencv-budget", "0.000001", "--skip-probe", "--stream-frames", "0",
                        "--json", json.string(), "--markdown", md.string()});
  ASSERT_EQ(r.code, 0) << r;
  const auto doc = nlohmann::json::parse(readFile(json));
  ASSERT_FALSE(doc["opencv"].empty());
  for (const auto& c : doc["opencv"]) {
    EXPECT_EQ(c["status"], "ok") << c.dump();
    EXPECT_EQ(c.value("samples", -1), 1) << c.dump();
    EXPECT_GT(c["ms_median"].get<double>(), 0) << c.dump();
    EXPECT_TRUE(c["loop_mean_ms"].is_null()) << c.dump();  // one call fits: no loop to average
    EXPECT_NE(c["reason"].get<std::string>().find("1 of 40 timed calls"), std::string::npos) << c.dump();
    EXPECT_NE(c["reason"].get<std::string>().find("--opencv-budget 1e-06 s)"), std::string::npos)
        << c.dump();  // the budget as given, not rounded to whole seconds
  }
  EXPECT_NE(readFile(md).find("- cv_cpu_per_channel: 1 of 40 timed calls"), std::string::npos)
      << readFile(md);
  EXPECT_NE(r.err.find("cv_cpu_per_channel: 1 of 40 timed calls"), std::string::npos) << r;
}

TEST_F(Cli, BenchKSweepMeasuresEachKAndSummarisesIt) {
  // Small frames, three K, fast strategies; auto runs its provisional strategy (CONVOLAB_AUTO_MEASURE=off):
  // its measurement of every candidate is auto's own tests' business. A budget of 0 s stops naive after its
  // first K.
  const fs::path json = path("ksweep.json"), md = path("ksweep.md");
  ::setenv("CONVOLAB_AUTO_MEASURE", "off", 1);
  const Result r = cli({"bench",
                        "--ksweep",
                        "3,5:7",
                        "--ksweep-budget",
                        "0",
                        "--size",
                        "32x24",
                        "-n",
                        "1",
                        "-w",
                        "1",
                        "--strategy",
                        "dynamic,naive,auto",
                        "--skip-probe",
                        "--stream-frames",
                        "0",
                        "--json",
                        json.string(),
                        "--markdown",
                        md.string(),
                        "-q"});
  ::unsetenv("CONVOLAB_AUTO_MEASURE");
  ASSERT_EQ(r.code, 0) << r;
  const auto doc = nlohmann::json::parse(readFile(json));
  EXPECT_EQ(doc["config"]["ksweep"], nlohmann::json({3, 5, 7}));
  EXPECT_NE(doc["config"]["filter_description"].get<std::string>().find("KxK at each K"), std::string::npos)
      << "the header names the sweep's K, not --ksize's";
  ASSERT_EQ(doc["results"].size(), 9u) << "3 strategies x 3 K";
  std::map<std::pair<std::string, int>, nlohmann::json> rows;
  for (const auto& res : doc["results"])
    rows[{res["strategy"].get<std::string>(), res["k"].get<int>()}] = res;
  auto row = [&rows](const std::string& name, int k) { return rows[std::make_pair(name, k)]; };
  for (int k : {3, 5, 7}) {
    EXPECT_EQ(row("auto", k)["status"], "ok") << "auto is never dropped: " << row("auto", k);
    EXPECT_LE(row("auto", k)["max_abs_diff"].get<int>(), 1);
  }
  for (const char* name : {"dynamic", "naive"}) {
    EXPECT_EQ(row(name, 3)["status"], "ok") << row(name, 3);
    for (int k : {5, 7}) {
      EXPECT_EQ(row(name, k)["status"], "skipped") << "over the budget at K 3: " << row(name, k);
      EXPECT_NE(row(name, k)["reason"].get<std::string>().find("--ksweep-budget"), std::string::npos);
    }
  }
  const auto& points = doc["ksweep"]["points"];
  ASSERT_EQ(points.size(), 3u);
  for (const auto& p : points) {
    EXPECT_TRUE(p["cv_cpu_per_channel_ms"].is_number()) << p << ": OpenCV on the same frames";
    EXPECT_TRUE(p["auto_kernel_ms"].is_number()) << p;
    EXPECT_NE(p["auto_active"].get<std::string>().find("dynamic"), std::string::npos) << p;
  }
  EXPECT_TRUE(points[0]["auto_over_fastest"].is_number()) << "dynamic and naive ran at K 3";
  EXPECT_TRUE(points[0]["choice_over_fastest"].is_number()) << "auto ran dynamic, whose row ran at K 3";
  EXPECT_TRUE(points[1]["auto_over_fastest"].is_null()) << "auto alone ran at K 5";
  ASSERT_EQ(doc["ksweep"]["crossover"].size(), 1u);
  EXPECT_TRUE(doc["ksweep"]["crossover"][0]["fft_fastest_from_k"].is_null()) << "fft did not run";
  for (const auto& c : doc["opencv"]) EXPECT_TRUE(c["k"].is_number()) << c;
  EXPECT_NE(readFile(md).find("## K sweep at 32x24"), std::string::npos);
  EXPECT_NE(readFile(md).find("## 32x24, K 5"), std::string::npos);

  EXPECT_EQ(cli({"bench", "--ksweep", "4", "--size", "8x8"}).code, 2) << "K must be odd";
  EXPECT_EQ(cli({"bench", "--ksweep", "3:9:3", "--size", "8x8"}).code, 2) << "an odd step leaves K even";
  EXPECT_EQ(cli({"bench", "--ksweep", "3", "-f", (kPresets / "sharpen.json").string(), "--size", "8x8"}).code,
            2);
}

TEST_F(Cli, BenchSoakReportsRss) {
  const fs::path json = path("soak.json");
  const Result r =
      bench({"bench", "--soak", "20", "--size", "32x24", "--strategy", "naive", "--json", json.string()});
  ASSERT_EQ(r.code, 0) << r;
  const auto soak = nlohmann::json::parse(readFile(json))["soak"];
  for (const char* key : {"frames", "rss_start_kib", "rss_end_kib", "rss_growth_kib", "frame_ms_median"})
    EXPECT_TRUE(soak.contains(key)) << key;
  EXPECT_EQ(soak["frames"], 20);
  EXPECT_GT(soak["rss_end_kib"].get<long>(), 0);
}

TEST_F(Cli, BenchLatencyRunsTheLivePathAndReportsTheSplit) {
  // Without --latency, --latency-fps is a usage error (it would be silently ignored otherwise).
  EXPECT_EQ(bench({"bench", "--latency-fps", "60", "--size", "32x24", "--strategy", "naive"}).code, 2);

  const fs::path json = path("latency.json"), md = path("latency.md"), csv = path("latency.csv");
  setenv("CONVOLAB_BENCH_LATENCY_CSV", csv.c_str(), 1);
  const Result r =
      bench({"bench", "--latency", "1", "--latency-fps", "60", "--size", "64x48", "--strategy", "naive",
             "--device", "cpu", "--json", json.string(), "--markdown", md.string(), "-q"});
  unsetenv("CONVOLAB_BENCH_LATENCY_CSV");
  ASSERT_EQ(r.code, 0) << r;
  const auto doc = nlohmann::json::parse(readFile(json));
  EXPECT_EQ(doc["config"]["latency_fps"], 60.0);
  ASSERT_TRUE(doc["latency"].is_array());
  ASSERT_EQ(doc["latency"].size(), 1u) << doc.dump(2);
  const auto& l = doc["latency"][0];
  for (const char* key :
       {"strategy", "active", "size", "fps", "seconds", "duration_s", "pinned_staging", "pinned_buffers",
        "frames_produced", "frames_processed", "frames_dropped", "latency_ms", "stages_ms", "notices"})
    EXPECT_TRUE(l.contains(key)) << "latency[0]." << key;
  EXPECT_EQ(l["size"], "64x48");
  EXPECT_EQ(l["active"], "naive");
  EXPECT_TRUE(l["pinned_staging"].get<bool>());
  const auto processed = l["frames_processed"].get<std::uint64_t>();
  EXPECT_GT(processed, 0u);
  // Every frame produced is either processed or replaced in the slot (the consumer drains the last one).
  EXPECT_EQ(l["frames_produced"].get<std::uint64_t>(), processed + l["frames_dropped"].get<std::uint64_t>());
  // 1 s at 60 fps: about 60 frames, never more than the producer's pace allows.
  EXPECT_LE(l["frames_produced"].get<std::uint64_t>(), 61u);

  const auto& lat = l["latency_ms"];
  for (const char* key : {"mean", "p50", "p95", "max"}) ASSERT_TRUE(lat.contains(key)) << key;
  EXPECT_GT(lat["p50"].get<double>(), 0);
  EXPECT_GE(lat["p95"].get<double>(), lat["p50"].get<double>());
  EXPECT_GE(lat["max"].get<double>(), lat["p95"].get<double>());
  // The stages between the capture stamp and the display add up to the latency, frame by frame, so in the
  // mean.
  double sum = 0;
  for (const char* stage : {"slot_wait", "upload", "kernels", "download", "engine_other", "display"}) {
    ASSERT_TRUE(l["stages_ms"].contains(stage)) << stage;
    const auto& s = l["stages_ms"][stage];
    EXPECT_GE(s["p95"].get<double>(), s["p50"].get<double>()) << stage;
    sum += s["mean"].get<double>();
  }
  EXPECT_NEAR(sum, lat["mean"].get<double>(), 1e-6 * std::max(1.0, lat["mean"].get<double>()));
  EXPECT_GT(l["stages_ms"]["kernels"]["mean"].get<double>(), 0);
  EXPECT_GT(l["stages_ms"]["display"]["mean"].get<double>(), 0);
  EXPECT_TRUE(l["stages_ms"].contains("fill"));
  EXPECT_NE(readFile(md).find("| 64x48 | 60 | naive | pinned |"), std::string::npos) << readFile(md);
  // CONVOLAB_BENCH_LATENCY_CSV: a header and one line a processed frame, "engine other" split in two.
  std::istringstream lines(readFile(csv));
  std::string header, line;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("frame,at_ms,total,slot_wait,before_process,process_host,", 0), 0u) << header;
  std::uint64_t frames = 0;
  while (std::getline(lines, line)) ++frames;
  EXPECT_EQ(frames, processed);
}

// The display stage draws with OpenGL (EGL, headless) where a context comes up, and says which it used; the
// CPU stub stays on demand (and where no EGL display exists).
TEST_F(Cli, BenchLatencyDisplaysWithOpenGlWhereItCan) {
  auto notices = [&](bool stub) {
    const fs::path json = path(stub ? "stub.json" : "gl.json");
    if (stub) setenv("CONVOLAB_BENCH_DISPLAY", "stub", 1);
    const Result r = bench({"bench", "--latency", "0.5", "--latency-fps", "30", "--size", "64x48",
                            "--strategy", "naive", "--device", "cpu", "--json", json.string(), "-q"});
    unsetenv("CONVOLAB_BENCH_DISPLAY");
    EXPECT_EQ(r.code, 0) << r;
    const auto l = nlohmann::json::parse(readFile(json))["latency"][0];
    EXPECT_GT(l["stages_ms"]["display"]["mean"].get<double>(), 0);
    std::string display;
    for (const auto& n : l["notices"])
      if (n.get<std::string>().rfind("display: ", 0) == 0) display = n.get<std::string>();
    return display;
  };
  EXPECT_EQ(notices(true), "display: CPU stub (CONVOLAB_BENCH_DISPLAY=stub)");
  const std::string gl = notices(false);
  if (gl.rfind("display: CPU stub", 0) == 0) GTEST_SKIP() << "no EGL here: " << gl;
  EXPECT_EQ(gl.rfind("display: OpenGL, upload and draw to 1280x720", 0), 0u) << gl;
  // After each frame the GPU is handed back to the engine's context (the GL -> CL switch off the timed path).
  EXPECT_NE(gl.find("compute kick after each frame: kernel"), std::string::npos) << gl;
}

// ---- presets ---------------------------------------------------------------------------------------------

TEST(Presets, EveryPresetLoadsAndIsBalanced) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(kPresets)) {
    if (e.path().extension() != ".json") continue;
    SCOPED_TRACE(e.path().string());
    convolab::FilterSet f;
    ASSERT_NO_THROW(f = convolab::loadFilterFile(e.path()));
    EXPECT_FALSE(f.name().empty()) << "a preset has a human name";
    names.insert(e.path().stem().string());
    // Each channel either keeps flat areas (weights sum to 1, no offset) or maps them to its offset (sum 0).
    for (int c = 0; c < 3; ++c) {
      double sum = 0;
      for (int j = 0; j < f.size(); ++j)
        for (int i = 0; i < f.size(); ++i) sum += f.channel(c).weight(j, i);
      EXPECT_TRUE(std::abs(sum - 1) < 1e-9 || std::abs(sum) < 1e-9) << "channel " << c << " sums to " << sum;
      if (std::abs(sum - 1) < 1e-9) {
        EXPECT_EQ(f.channel(c).offset, 0) << "channel " << c;
      }
    }
  }
  for (const char* want :
       {"identity", "box_blur", "gaussian", "sharpen", "unsharp_mask", "laplacian", "sobel_x", "sobel_y",
        "scharr", "emboss", "outline", "motion_blur", "channel_shift", "colour_edges"})
    EXPECT_TRUE(names.count(want)) << want << ".json missing";
  EXPECT_FALSE(convolab::loadFilterFile(kPresets / "channel_shift.json").channelsIdentical());
  EXPECT_FALSE(convolab::loadFilterFile(kPresets / "colour_edges.json").channelsIdentical());
  EXPECT_EQ(convolab::loadFilterFile(kPresets / "gaussian.json").size(), 7);
}

// ---- a careless environment: caches that cannot be written or hold FIFOs -------

/// Sets (value non-null) or unsets environment variables for one scope, restoring them after.
class ScopedEnv {
 public:
  ScopedEnv(std::initializer_list<std::pair<const char*, const char*>> vars) {
    for (const auto& [name, value] : vars) {
      const char* old = std::getenv(name);
      m_saved.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
      if (value)
        ::setenv(name, value, 1);
      else
        ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    for (const auto& [name, value] : m_saved) {
      if (value)
        ::setenv(name.c_str(), value->c_str(), 1);
      else
        ::unsetenv(name.c_str());
    }
  }

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> m_saved;
};

TEST_F(Cli, ReadOnlyCacheAndHomeStillRunWithOneNote) {
  // Nobody, root included, can create folders under /proc: both ConvoLab's cache and the driver's
  // (PoCL's kernel cache, under the same XDG/HOME folders) are unwritable.
  ScopedEnv env{{"HOME", "/proc"},
                {"XDG_CACHE_HOME", "/proc/convolab-test-cache"},
                {"CONVOLAB_CACHE_DIR", nullptr},
                {"POCL_CACHE_DIR", nullptr}};
  const fs::path out = path("sharp.png");
  const Result r = applySharpen(kCoffee, out);
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_EQ(r.err.find("no OpenCL"), std::string::npos) << r;
  EXPECT_NE(r.err.find("cannot be written"), std::string::npos) << r;
  const cv::Mat want =
      expectedBgr(cv::imread(kCoffee.string(), cv::IMREAD_COLOR),
                  convolab::loadFilterFile(kPresets / "sharpen.json"), cv::BORDER_REFLECT_101);
  EXPECT_LE(maxAbsDiff(cv::imread(out.string(), cv::IMREAD_COLOR), want), 1);
}

TEST_F(Cli, FifoInPlaceOfEveryCacheFileDoesNotHang) {
  const fs::path cache = path("cache");
  ScopedEnv env{{"CONVOLAB_CACHE_DIR", cache.c_str()}, {"CONVOLAB_PROGRAM_BINARIES", "1"}};
  ASSERT_EQ(applySharpen(kCoffee, path("first.png")).code, 0);
  int fifos = 0;
  for (const auto& e : fs::directory_iterator(cache / "programs")) {
    fs::remove(e.path());
    ASSERT_EQ(::mkfifo(e.path().c_str(), 0600), 0);
    ++fifos;
  }
  ASSERT_GT(fifos, 0);
  // The test's own timeout would be minutes; a child that blocks is killed after 60 s by `timeout`.
  const Result r =
      runProgram("/usr/bin/timeout",
                 {"60", CONVOLAB_CLI_PATH, "apply", "--strategy", "naive", "--filter",
                  (kPresets / "sharpen.json").string(), kCoffee.string(), "-o", path("second.png").string()},
                 m_dir);
  ASSERT_EQ(r.code, 0) << r;
  EXPECT_TRUE(r.err.empty()) << "nothing alarming is said\n" << r;
  EXPECT_EQ(maxAbsDiff(cv::imread(path("first.png").string()), cv::imread(path("second.png").string())), 0);
}

}  // namespace
