// The one definition of stb_image's and stb_image_write's functions in the renderer (the files
// that use them include the headers without the IMPLEMENTATION macros). stb_image reads the two
// formats no dedicated library reads here, each checked first (io/image/stb_checks.h): TGA
// textures and Radiance HDR textures and environment maps; stb_image_write writes Radiance HDR.
#define STBI_ONLY_TGA
#define STBI_ONLY_HDR
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
