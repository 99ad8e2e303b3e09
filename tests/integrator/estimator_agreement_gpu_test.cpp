// Next-event estimation against BSDF sampling on the GPU, per scene, at each scene's own size:
// every shipped scene and the scenes made for the test (tests/data/agreement) at 256
// samples per pixel, and smallpt at 4096, where the whole image's means must also agree to 0.2%.
#include "estimator_agreement.h"

namespace raystream {
namespace {

class EstimatorAgreementGpu : public testing::TestWithParam<std::string> {};

TEST_P(EstimatorAgreementGpu, NextEventEstimationAgreesWithBsdfSampling) {
  std::vector<std::string> warnings;
  const Scene scene = load_scene(GetParam(), warnings);
  test::expect_estimators_agree(GetParam(), ExecutorKind::gpu, scene.camera.width,
                                scene.camera.height, 256, 8);
}

INSTANTIATE_TEST_SUITE_P(Scenes, EstimatorAgreementGpu,
                         testing::ValuesIn(test::agreement_scene_paths()), test::scene_test_name);

TEST(EstimatorAgreementGpu, SmallptAgreesAt4096SamplesPerPixel) {
  for (const Schedule schedule : {Schedule::stream, Schedule::megakernel}) {
    SCOPED_TRACE(schedule_name(schedule));
    const test::Agreement r = test::expect_estimators_agree(
        "scenes/smallpt.json", ExecutorKind::gpu, 1024, 768, 4096, 8, schedule);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(r.image_mean_a[c] / r.image_mean_b[c], 1.0, 0.002) << "channel " << c;
  }
}

}  // namespace
}  // namespace raystream
