// The compile-time backend switch with PRIM_BACKEND_THRUST (this binary is built with
// primitives_select_backend(... thrust)): prim::selected is prim::thrust_backend. Runs without a
// GPU: the calls below fail their argument checks before touching the device.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "primitives/backend.h"
#include "test_support.h"

namespace prim_test {
namespace {

TEST(BackendSwitch, ThrustIsSelected) {
  EXPECT_STREQ(prim::kBackendName, "thrust");
  EXPECT_EQ(PRIM_BACKEND, PRIM_BACKEND_THRUST);
  prim::Workspace ws;
  std::uint32_t out[4];
  std::size_t count = 0;
  expect_error(
      [&] { prim::selected::exclusive_scan<std::uint32_t>(nullptr, out, 4, 0, prim::Plus{}, ws); },
      {"prim::thrust_backend::exclusive_scan"});
  expect_error([&] { prim::selected::compact_if(out, out, 4, IsOdd{}, &count, ws); },
               {"prim::thrust_backend::compact_if"});
  EXPECT_EQ(prim::selected::scan_workspace_bytes<std::uint32_t>(1000), 0u);
}

}  // namespace
}  // namespace prim_test
