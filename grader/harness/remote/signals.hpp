// One sentence fragment per signal, for the reports of the judge (a worker that crashed) and of the grader (a
// compiler, a judge or a class member's grade that was killed): "SIGSEGV, a segmentation fault".
#pragma once

#include <string>

namespace wb {

std::string signal_description(int sig);

}  // namespace wb
