// The two lists of RenderSettings (render_settings.h): every field is in one, a change to a
// setting of the first changes the checkpoint key and one of the second does not.
#include <gtest/gtest.h>

#include "core/field_count.h"
#include "integrator/api/render_settings.h"
#include "perturb.h"

namespace raystream {
namespace {

void perturb(FilmLayers& layers) {
  layers.first_hits = !layers.first_hits;
}
using test::perturb;

#define RAYSTREAM_COUNT(...) +1
TEST(RenderSettingsLists, EveryFieldIsInOneList) {
  constexpr std::size_t listed =
      0 RAYSTREAM_IMAGE_SETTINGS(RAYSTREAM_COUNT) RAYSTREAM_OTHER_SETTINGS(RAYSTREAM_COUNT);
  EXPECT_EQ(field_count<RenderSettings>(), listed)
      << "a field of RenderSettings is in neither list of render_settings.h";
}
#undef RAYSTREAM_COUNT

TEST(RenderSettingsLists, ImageSettingsChangeTheKey) {
  const RenderSettings base;
  const auto key = image_settings(base);
#define RAYSTREAM_CHECK_IMAGE(field, name, text)                                         \
  {                                                                                      \
    RenderSettings changed;                                                              \
    perturb(changed.field);                                                              \
    EXPECT_NE(image_settings(changed), key) << #field " changes the image, not the key"; \
  }
  RAYSTREAM_IMAGE_SETTINGS(RAYSTREAM_CHECK_IMAGE)
#undef RAYSTREAM_CHECK_IMAGE
}

TEST(RenderSettingsLists, OtherSettingsLeaveTheKey) {
  const RenderSettings base;
  const auto key = image_settings(base);
#define RAYSTREAM_CHECK_OTHER(field)                                                          \
  {                                                                                           \
    RenderSettings changed;                                                                   \
    perturb(changed.field);                                                                   \
    EXPECT_EQ(image_settings(changed), key) << #field " is listed as not changing the image"; \
  }
  RAYSTREAM_OTHER_SETTINGS(RAYSTREAM_CHECK_OTHER)
#undef RAYSTREAM_CHECK_OTHER
}

TEST(RenderSettingsLists, KeyNamesAndTexts) {
  RenderSettings s;
  s.width = 320;
  s.height = 240;
  s.nee = false;
  s.seed = 7;
  const auto key = image_settings(s);
  ASSERT_EQ(key.size(), 7u);
  EXPECT_EQ(key[0], std::make_pair(std::string("width"), std::string("320")));
  EXPECT_EQ(key[1], std::make_pair(std::string("height"), std::string("240")));
  EXPECT_EQ(key[3].first, kSppSettingName);
  EXPECT_EQ(key[4], std::make_pair(std::string("seed"), std::string("7")));
  EXPECT_EQ(key[5], std::make_pair(std::string("--integrator"), std::string("bsdf")));
}

TEST(EnumNames, EveryNameReadsBack) {
  EXPECT_STREQ(schedule_name(Schedule::megakernel), "megakernel");
  EXPECT_EQ(enum_named<Schedule>("frame", kScheduleNames), Schedule::frame);
  EXPECT_STREQ(compaction_name(Compaction::fused), "fused");
  EXPECT_STREQ(bvh_builder_name(BvhBuilder::lbvh), "lbvh");
  EXPECT_STREQ(stop_reason_name(StopReason::time_budget), "time budget");
  EXPECT_STREQ(executor_kind_name(ExecutorKind::cpu), "cpu");
  EXPECT_STREQ(primitives_backend_name(PrimitivesBackend::thrust), "thrust");
  EXPECT_FALSE(enum_named<ShadeMode>("none", kShadeModeNames).has_value());
}

}  // namespace
}  // namespace raystream
