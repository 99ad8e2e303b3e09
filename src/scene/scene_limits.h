// The largest values a scene, a command line or a checkpoint may give: larger ones are refused as
// absurd rather than tried.
#pragma once

namespace raystream {

inline constexpr int kMaxImageSide = 16384;
inline constexpr long long kMaxImagePixels = 8192LL * 8192LL;
inline constexpr int kMaxIterations = 1000000;
inline constexpr int kMaxDepth = 1024;
inline constexpr int kMaxMaterials = 65534;  // material ids are 16-bit sort keys on the device
inline constexpr long long kMaxTriangles = 0x7FFFFFFFLL - 65536;  // BVH references are int32
// The smoothest Plastic coat (materials/plastic.h: kMinPlasticAlpha = ROUGHNESS^2): a smaller
// ROUGHNESS is rendered as this one, with a warning.
inline constexpr float kMinPlasticRoughness = 0.1f;
// Largest coordinate of the camera and of any object or triangle after its transform: beyond it
// the renderer's single-precision arithmetic (box areas, distances along rays) overflows.
inline constexpr float kMaxCoordinate = 1.0e18f;

}  // namespace raystream
