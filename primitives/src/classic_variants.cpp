#include <array>
#include <utility>

#include "primitives/classic/variants.h"
#include "primitives/error.h"

namespace prim::classic {
namespace {

template <class E, std::size_t N>
const char* name_of(const std::array<std::pair<E, const char*>, N>& table, E value) {
  for (auto& entry : table)
    if (entry.first == value) return entry.second;
  return "?";
}

template <class E, std::size_t N>
E parse_of(const std::array<std::pair<E, const char*>, N>& table, std::string_view text,
           const char* what) {
  std::string valid;
  for (auto& entry : table) {
    if (text == entry.second) return entry.first;
    valid += valid.empty() ? "" : ", ";
    valid += entry.second;
  }
  throw Error(std::string("unknown ") + what + " '" + std::string(text) + "' (valid: " + valid +
              ")");
}

template <class E, std::size_t N>
std::vector<E> all_of(const std::array<std::pair<E, const char*>, N>& table) {
  std::vector<E> out;
  for (auto& entry : table) out.push_back(entry.first);
  return out;
}

const std::array<std::pair<ScanAlgorithm, const char*>, 5> kScan = {{
    {ScanAlgorithm::naive, "naive"},
    {ScanAlgorithm::work_efficient, "work_efficient"},
    {ScanAlgorithm::blocked_brent_kung, "blocked_brent_kung"},
    {ScanAlgorithm::blocked_blelloch, "blocked_blelloch"},
    {ScanAlgorithm::lookback, "lookback"},
}};
const std::array<std::pair<CompactAlgorithm, const char*>, 2> kCompact = {{
    {CompactAlgorithm::scan_scatter, "scan_scatter"},
    {CompactAlgorithm::fused, "fused"},
}};
const std::array<std::pair<SortAlgorithm, const char*>, 3> kSort = {{
    {SortAlgorithm::split_1bit, "split_1bit"},
    {SortAlgorithm::lsd, "lsd"},
    {SortAlgorithm::onesweep, "onesweep"},
}};

}  // namespace

const char* name(ScanAlgorithm a) {
  return name_of(kScan, a);
}
const char* name(CompactAlgorithm a) {
  return name_of(kCompact, a);
}
const char* name(SortAlgorithm a) {
  return name_of(kSort, a);
}
ScanAlgorithm parse_scan_algorithm(std::string_view t) {
  return parse_of(kScan, t, "scan algorithm");
}
CompactAlgorithm parse_compact_algorithm(std::string_view t) {
  return parse_of(kCompact, t, "compact algorithm");
}
SortAlgorithm parse_sort_algorithm(std::string_view t) {
  return parse_of(kSort, t, "sort algorithm");
}
std::vector<ScanAlgorithm> all_scan_algorithms() {
  return all_of(kScan);
}
std::vector<CompactAlgorithm> all_compact_algorithms() {
  return all_of(kCompact);
}
std::vector<SortAlgorithm> all_sort_algorithms() {
  return all_of(kSort);
}

}  // namespace prim::classic
