// The compile-time backend switch left at its default: prim::selected is prim::own. Runs without
// a GPU: the calls below fail their argument checks before touching the device.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "primitives/backend.h"
#include "test_support.h"

namespace prim_test {
namespace {

TEST(BackendSwitch, OwnIsTheDefault) {
  EXPECT_STREQ(prim::kBackendName, "own");
  EXPECT_EQ(PRIM_BACKEND, PRIM_BACKEND_OWN);
  prim::Workspace ws;
  std::uint32_t out[4];
  std::size_t count = 0;
  expect_error(
      [&] { prim::selected::exclusive_scan<std::uint32_t>(nullptr, out, 4, 0, prim::Plus{}, ws); },
      {"prim::own::exclusive_scan"});
  expect_error([&] { prim::selected::compact_if(out, out, 4, IsOdd{}, &count, ws); },
               {"prim::own::compact_if"});
}

}  // namespace
}  // namespace prim_test
