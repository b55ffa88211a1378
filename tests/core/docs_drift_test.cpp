// SPDX-License-Identifier: MIT
// The docs against the code, for the claims code can check (issue 37.5): every CONVOLAB_* variable the code
// reads is documented and every documented one exists; every command-line option of convolab-cli and convolab
// is in its doc and every option docs/CLI.md and the man page name is parsed; every path, file name and
// GoogleTest name the docs write in backticks exists. A rename that leaves a doc behind fails here, naming
// the doc and line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace convolab::test::docs_drift {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot{CONVOLAB_SOURCE_DIR};

std::string readText(const fs::path& relative) {
  std::ifstream in(kRoot / relative, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The docs people read: README.md, docs/*.md (not docs/history/, which tells the past), kernels/README.md
/// and tests/data/README.md. Relative paths, sorted.
std::vector<fs::path> markdownDocs() {
  std::vector<fs::path> docs{"README.md", "kernels/README.md", "tests/data/README.md"};
  for (const auto& entry : fs::directory_iterator(kRoot / "docs"))
    if (entry.is_regular_file() && entry.path().extension() == ".md")
      docs.push_back(fs::relative(entry.path(), kRoot));
  std::sort(docs.begin(), docs.end());
  return docs;
}

const char* const kManPage = "packaging/convolab-cli.1";

/// Relative paths of every file under the tree's top-level folders, and the top-level files.
std::vector<fs::path> treeFiles() {
  std::vector<fs::path> files{"CMakeLists.txt", "Makefile"};
  for (const char* dir :
       {"app", "core", "kernels", "tests", "scripts", "cmake", "docs", "packaging", "resources"})
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / dir))
      if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), kRoot));
  return files;
}

bool isCodeText(const fs::path& file) {
  static const std::set<std::string> kExtensions{".cpp", ".hpp", ".h",  ".txt", ".cmake",
                                                 ".sh",  ".py",  ".cl", ".in"};
  return kExtensions.count(file.extension().string()) || file.filename() == "Makefile";
}

/// The text of every code file under `top` (a folder, or "" for the whole tree), concatenated.
std::string codeUnder(const std::vector<fs::path>& files, const std::string& top) {
  std::string all;
  for (const auto& f : files)
    if (isCodeText(f) && (top.empty() || f.string().rfind(top, 0) == 0)) all += readText(f) + "\n";
  return all;
}

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string joined(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

/// Names CONVOLAB_X in `text`; with `quoted`, only those right after a '"' (a string literal: what the code
/// passes to getenv, qEnvironmentVariable or CoreConfig's reader, or writes into a message about it).
std::set<std::string> variableNames(const std::string& text, bool quoted) {
  std::set<std::string> names;
  for (auto at = text.find("CONVOLAB_"); at != std::string::npos; at = text.find("CONVOLAB_", at + 1)) {
    if (at > 0 && (isWordChar(text[at - 1]) || (quoted && text[at - 1] != '"'))) continue;
    if (quoted && at == 0) continue;
    auto end = at + 9;
    while (end < text.size() && (std::isupper(static_cast<unsigned char>(text[end])) ||
                                 std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '_'))
      ++end;
    if (end > at + 9) names.insert(text.substr(at, end - at));
  }
  return names;
}

/// "--name" tokens of prose (a man page's "\-" read as "-").
std::set<std::string> proseOptions(std::string text) {
  for (auto at = text.find("\\-"); at != std::string::npos; at = text.find("\\-", at)) text.erase(at, 1);
  std::set<std::string> names;
  for (auto at = text.find("--"); at != std::string::npos; at = text.find("--", at + 2)) {
    if (at > 0 && (isWordChar(text[at - 1]) || text[at - 1] == '-')) continue;
    auto end = at + 2;
    if (end >= text.size() || !std::islower(static_cast<unsigned char>(text[end]))) continue;
    while (end < text.size() && (std::islower(static_cast<unsigned char>(text[end])) ||
                                 std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '-'))
      ++end;
    names.insert(text.substr(at, end - at));
  }
  return names;
}

/// The string literal starting at or after `at` (skipping blanks), or "" when something else comes first.
std::string literalAt(const std::string& source, std::size_t at) {
  while (at < source.size() && std::isspace(static_cast<unsigned char>(source[at]))) ++at;
  if (at >= source.size() || source[at] != '"') return "";
  const auto end = source.find('"', at + 1);
  return end == std::string::npos ? "" : source.substr(at + 1, end - at - 1);
}

/// The long options CLI11 is given: the first argument of add_option/add_flag/set_version_flag
/// ("-o,--output").
std::set<std::string> cli11Options(const std::string& source) {
  std::set<std::string> names;
  for (const std::string call : {"add_option(", "add_flag(", "set_version_flag("})
    for (auto at = source.find(call); at != std::string::npos; at = source.find(call, at + 1)) {
      std::stringstream spec(literalAt(source, at + call.size()));
      for (std::string name; std::getline(spec, name, ',');)
        if (name.rfind("--", 0) == 0) names.insert(name);
    }
  return names;
}

/// The long options of QCommandLineOption declarations: `QCommandLineOption x("name", …)` or
/// `QCommandLineOption x(QStringList{"h", "help"}, …)`; one-letter names are short options.
std::set<std::string> qtOptions(const std::string& source) {
  std::set<std::string> names;
  const std::string type = "QCommandLineOption ";
  for (auto at = source.find(type); at != std::string::npos; at = source.find(type, at + 1)) {
    const auto open = source.find('(', at);
    const auto close = source.find_first_of(",)", open);
    std::string first = source.substr(open + 1, close - open - 1);
    if (first.find("QStringList{") != std::string::npos)
      first = source.substr(open + 1, source.find('}', open) - open);
    std::smatch m;
    static const std::regex literal("\"([a-z][a-z-]+)\"");
    for (auto s = first.cbegin(); std::regex_search(s, first.cend(), m, literal); s = m.suffix().first)
      names.insert("--" + m[1].str());
  }
  return names;
}

/// (suite, name) of every TEST, TEST_F and TEST_P in `source`.
std::set<std::pair<std::string, std::string>> googleTests(const std::string& source) {
  std::set<std::pair<std::string, std::string>> tests;
  auto identifier = [&](std::size_t& at) {
    while (at < source.size() && std::isspace(static_cast<unsigned char>(source[at]))) ++at;
    const auto start = at;
    while (at < source.size() && isWordChar(source[at])) ++at;
    return source.substr(start, at - start);
  };
  for (auto at = source.find("TEST"); at != std::string::npos; at = source.find("TEST", at + 1)) {
    if (at > 0 && isWordChar(source[at - 1])) continue;
    auto p = at + 4;
    if (source.compare(p, 2, "_F") == 0 || source.compare(p, 2, "_P") == 0) p += 2;
    if (p >= source.size() || source[p] != '(') continue;
    ++p;
    const std::string suite = identifier(p);
    while (p < source.size() && std::isspace(static_cast<unsigned char>(source[p]))) ++p;
    if (suite.empty() || p >= source.size() || source[p] != ',') continue;
    ++p;
    const std::string name = identifier(p);
    if (!name.empty()) tests.emplace(suite, name);
  }
  return tests;
}

struct Span {
  fs::path doc;
  int line;
  std::string text;
};

/// The `backticked` spans of the Markdown docs, outside fenced code blocks.
std::vector<Span> backtickSpans() {
  std::vector<Span> spans;
  for (const auto& doc : markdownDocs()) {
    std::istringstream lines(readText(doc));
    bool fenced = false;
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
      ++number;
      if (line.find_first_not_of(' ') != std::string::npos &&
          line.compare(line.find_first_not_of(' '), 3, "```") == 0)
        fenced = !fenced;
      if (fenced) continue;
      for (auto open = line.find('`'); open != std::string::npos;) {
        const auto close = line.find('`', open + 1);
        if (close == std::string::npos) break;
        spans.push_back({doc, number, line.substr(open + 1, close - open - 1)});
        open = line.find('`', close + 1);
      }
    }
  }
  return spans;
}

/// Backticked names that are not in the tree on purpose.
const std::set<std::string> kNotInTree{
    "embedded_kernels.cpp",  // generated into the build folder (ARCHITECTURE.md, kernel embedding)
    "kernels/x.cl",          // the fragment of `#include "x.cl"`, an example
    "foo_bar.hpp",          "foo_bar.cpp",  // the example of the one-class-per-pair rule
    "OpenCVConfig.cmake",                   // OpenCV's, which Debian's per-module packages lack
};

}  // namespace

TEST(DocsDrift, EnvironmentVariablesTheCodeReadsAreDocumentedAndDocumentedOnesExist) {
  const auto files = treeFiles();
  std::string docs = readText(kManPage);
  for (const auto& doc : markdownDocs()) docs += readText(doc);
  const auto documented = variableNames(docs, false);
  std::set<std::string> undocumented, unknown;
  for (const auto& name : variableNames(codeUnder(files, "app/") + codeUnder(files, "core/"), true))
    if (!documented.count(name)) undocumented.insert(name);
  const auto known = variableNames(codeUnder(files, ""), false);
  for (const auto& name : documented)
    if (!known.count(name)) unknown.insert(name);
  EXPECT_EQ(joined(undocumented), "") << "read by app/ or core/ but named in no doc (README.md, docs/*.md, "
                                         "kernels/README.md, the man page): say what they do";
  EXPECT_EQ(joined(unknown), "")
      << "named in the docs but nowhere in the code, CMake or scripts: renamed or gone?";
}

TEST(DocsDrift, CommandLineOptionsMatchTheParsers) {
  const auto files = treeFiles();
  const auto parsed = cli11Options(codeUnder(files, "app/cli/"));
  ASSERT_TRUE(parsed.count("--filter")) << "no add_option calls found in app/cli/";
  const auto cliDoc = proseOptions(readText("docs/CLI.md"));
  std::set<std::string> undocumented, unparsed, unparsedMan, guiUndocumented;
  for (const auto& name : parsed)
    if (!cliDoc.count(name)) undocumented.insert(name);
  for (const auto& name : cliDoc)
    if (!parsed.count(name) && name != "--help") unparsed.insert(name);
  for (const auto& name : proseOptions(readText(kManPage)))
    if (!parsed.count(name) && name != "--help") unparsedMan.insert(name);
  const auto gui = qtOptions(readText("app/gui/command_line.cpp"));
  ASSERT_TRUE(gui.count("--source")) << "no QCommandLineOption found in app/gui/command_line.cpp";
  const auto guiDoc = proseOptions(readText("docs/GUI.md"));
  for (const auto& name : gui)
    if (!guiDoc.count(name)) guiUndocumented.insert(name);
  EXPECT_EQ(joined(undocumented), "")
      << "convolab-cli parses these (app/cli) but docs/CLI.md never names them";
  EXPECT_EQ(joined(unparsed), "") << "docs/CLI.md names these but app/cli parses no such option";
  EXPECT_EQ(joined(unparsedMan), "")
      << "packaging/convolab-cli.1 names these but app/cli parses no such option";
  EXPECT_EQ(joined(guiUndocumented), "")
      << "convolab parses these (app/gui/command_line.cpp) but docs/GUI.md "
         "never names them";
}

TEST(DocsDrift, PathsFileNamesAndTestNamesInBackticksExist) {
  const auto files = treeFiles();
  std::set<std::string> basenames;
  for (const auto& f : files) basenames.insert(f.filename().string());
  const auto tests = googleTests(codeUnder(files, "tests/"));
  std::set<std::string> suites;
  for (const auto& t : tests) suites.insert(t.first);
  ASSERT_TRUE(suites.count("RegistryDocs")) << "no TEST() found under tests/";

  static const std::regex placeholder(R"([<>*{}$|\s]|\.\.\.|…)");
  static const std::regex fileName(R"([A-Za-z0-9_.-]+\.(cpp|hpp|cl|py|sh|cmake))");
  static const std::regex testName(R"((?:^|[^\w])([A-Z]\w*)\.([A-Za-z_]\w*))");
  std::vector<std::string> missing;
  for (const auto& span : backtickSpans()) {
    const std::string& t = span.text;
    const std::string where = span.doc.string() + ":" + std::to_string(span.line) + ": `" + t + "`";
    if (kNotInTree.count(t)) continue;
    static const std::vector<std::string> kTop{"app/",   "core/", "kernels/",   "tests/",    "scripts/",
                                               "cmake/", "docs/", "packaging/", "resources/"};
    const bool isPath =
        std::any_of(kTop.begin(), kTop.end(), [&](const auto& p) { return t.rfind(p, 0) == 0; });
    if (isPath && !std::regex_search(t, placeholder)) {
      std::string p = t;
      while (!p.empty() && std::string("/.,:;").find(p.back()) != std::string::npos) p.pop_back();
      // A path may name a concept's pair without its extension (`core/src/literal_taps`).
      if (!fs::exists(kRoot / p) && !fs::exists(kRoot / (p + ".hpp")) && !fs::exists(kRoot / (p + ".cpp")))
        missing.push_back(where + " (no such path)");
    } else if (std::regex_match(t, fileName) && !basenames.count(t)) {
      missing.push_back(where + " (no file of that name in the tree)");
    }
    for (auto s = t.cbegin(); s != t.cend();) {
      std::smatch m;
      if (!std::regex_search(s, t.cend(), m, testName)) break;
      if (suites.count(m[1]) && !tests.count({m[1], m[2]}))
        missing.push_back(where + " (suite " + m[1].str() + " has no test " + m[2].str() + ")");
      s = m[2].second;
    }
  }
  std::string list;
  for (const auto& m : missing) list += "\n  " + m;
  EXPECT_TRUE(missing.empty())
      << "names in the docs that the tree does not have (fix the doc, or add a name that "
         "is not in the tree on purpose to kNotInTree):"
      << list;
}

}  // namespace convolab::test::docs_drift
