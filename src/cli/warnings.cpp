#include "cli/warnings.h"

#include <map>
#include <utility>

namespace raystream {
namespace {

std::pair<std::string, std::string> kind_of(const std::string& warning) {
  const std::size_t first = warning.find(": ");
  const std::size_t last = warning.rfind(": ");
  if (first == std::string::npos) return {"", warning};
  return {warning.substr(0, first), warning.substr(last + 2)};
}

}  // namespace

std::vector<std::string> capped_warnings(const std::vector<std::string>& warnings,
                                         std::size_t per_kind) {
  std::vector<std::string> out;
  std::map<std::pair<std::string, std::string>, std::size_t> seen;
  std::vector<std::pair<std::string, std::string>> order;  // kinds in the order first seen
  for (const std::string& w : warnings) {
    const auto kind = kind_of(w);
    const std::size_t n = ++seen[kind];
    if (n == 1) order.push_back(kind);
    if (n <= per_kind) out.push_back(w);
  }
  for (const auto& kind : order) {
    const std::size_t n = seen[kind];
    if (n <= per_kind) continue;
    out.push_back((kind.first.empty() ? "" : kind.first + ": ") + std::to_string(n - per_kind) +
                  " more warning" + (n - per_kind == 1 ? "" : "s") + " like the above (" +
                  kind.second + ")");
  }
  return out;
}

}  // namespace raystream
