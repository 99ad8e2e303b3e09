// Next-event estimation against BSDF sampling on the CPU executor, per scene, at small sizes:
// every shipped scene and the scenes made for the test (tests/data/agreement). The GPU
// version (estimator_agreement_gpu_test.cpp) renders them at full size.
#include "estimator_agreement.h"

namespace raystream {
namespace {

class EstimatorAgreementCpu : public testing::TestWithParam<std::string> {};

TEST_P(EstimatorAgreementCpu, NextEventEstimationAgreesWithBsdfSampling) {
  test::expect_estimators_agree(GetParam(), ExecutorKind::cpu, 64, 48, 256, 4);
}

INSTANTIATE_TEST_SUITE_P(Scenes, EstimatorAgreementCpu,
                         testing::ValuesIn(test::agreement_scene_paths()), test::scene_test_name);

}  // namespace
}  // namespace raystream
