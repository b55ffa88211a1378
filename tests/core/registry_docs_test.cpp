// SPDX-License-Identifier: MIT
// The registry against what people read: the man page's strategy list and docs/ARCHITECTURE.md's table
// must name exactly the registered strategies (adding a strategy = its .cl, its .cpp, one registry row, and
// these two lines, which this test asks for by name).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "convolab/registry.hpp"

namespace convolab::test {
namespace {

std::string readSourceFile(const std::string& relative) {
  std::ifstream in(std::string(CONVOLAB_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// "lacks: a, b; names unregistered: c" for the differences of `listed` from the registry, or "".
std::string differences(const std::set<std::string>& listed) {
  std::string lacks, extra;
  for (const auto& name : strategyNames())
    if (!listed.count(name)) lacks += (lacks.empty() ? "" : ", ") + name;
  for (const auto& name : listed)
    if (!findStrategy(name)) extra += (extra.empty() ? "" : ", ") + name;
  std::string out;
  if (!lacks.empty()) out += "lacks: " + lacks;
  if (!extra.empty()) out += (out.empty() ? "" : "; ") + std::string("names unregistered: ") + extra;
  return out;
}

TEST(RegistryDocs, ManPageListsEveryStrategy) {
  const std::string man = readSourceFile("packaging/convolab-cli.1");
  ASSERT_FALSE(man.empty()) << "cannot read packaging/convolab-cli.1";
  const auto section = man.find(".SS strategies");
  ASSERT_NE(section, std::string::npos) << "packaging/convolab-cli.1 has no '.SS strategies' section";
  const auto colon = man.find(':', section);
  const auto end = man.find_first_of("(.", colon);  // the list ends at "auto (…" or the sentence's end
  std::string list = man.substr(colon + 1, end - colon - 1);
  std::set<std::string> listed;
  static const std::regex word("[a-z0-9_]+");
  for (std::sregex_iterator it(list.begin(), list.end(), word), stop; it != stop; ++it)
    if (it->str() != "and") listed.insert(it->str());
  EXPECT_EQ(differences(listed), "")
      << "packaging/convolab-cli.1, section 'strategies' (\"Lists the convolution "
         "strategies: …\"): add or remove these names";
}

TEST(RegistryDocs, ArchitectureTableHasARowPerStrategy) {
  const std::string doc = readSourceFile("docs/ARCHITECTURE.md");
  ASSERT_FALSE(doc.empty()) << "cannot read docs/ARCHITECTURE.md";
  const auto start = doc.find("| name | idea |");
  ASSERT_NE(start, std::string::npos) << "docs/ARCHITECTURE.md has no '| name | idea |' strategy table";
  std::set<std::string> listed;
  std::istringstream rows(doc.substr(start));
  std::string line;
  std::getline(rows, line);  // header
  std::getline(rows, line);  // |---|---|
  static const std::regex row(R"(^\| `([a-z0-9_]+)` \|.*)");
  std::smatch m;
  while (std::getline(rows, line) && line.rfind("|", 0) == 0)
    if (std::regex_match(line, m, row)) listed.insert(m[1]);
  EXPECT_EQ(differences(listed), "") << "docs/ARCHITECTURE.md, table '| name | idea |' under '## "
                                        "Strategies': add or remove rows '| `name` | … |'";
}

}  // namespace
}  // namespace convolab::test
