// cub::BlockStore: with BlockLoad (block_load.cuh).
#pragma once
#include <cub/block/block_load.cuh>
