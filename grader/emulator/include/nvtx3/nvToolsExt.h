// NVTX 3's header-only spelling of the same annotations (see ../nvToolsExt.h).
#pragma once
#include <nvToolsExt.h>
