#include "review/fill_policy.hpp"

#include <algorithm>
#include <string_view>

#include <cxxlex/cxxlex.hpp>

#include "review/c_library.hpp"

namespace workbook::review {
namespace {

using cxxlex::Kind;

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool allowed_keyword(std::string_view k) {
    return among(
        k, {"auto", "bool", "char", "char8_t", "char16_t", "char32_t", "double", "float", "int", "long", "short",
            "signed", "unsigned", "void", "wchar_t", "const", "volatile", "constexpr", "if", "else", "for", "while",
            "do", "switch", "case", "default", "break", "continue", "return", "true", "false", "nullptr", "sizeof",
            "alignof", "alignas", "decltype", "static_cast", "reinterpret_cast", "const_cast", "struct", "union",
            "enum", "class", "typedef", "public", "private", "protected", "mutable", "noexcept",
            // The alternative operator spellings are operators (the edit check compares them as && || …).
            "and", "or", "not", "bitand", "bitor", "xor", "compl", "and_eq", "or_eq", "xor_eq", "not_eq"});
}

// CUDA's documented device functions, intrinsics and types whose names are reserved identifiers (they start with
// "__"); the only reserved names a fill may use beyond those of its starter.
bool cuda_device_name(std::string_view n) {
    return among(n, {
                        // synchronization, warp votes and shuffles, fences
                        "__syncthreads",
                        "__syncthreads_count",
                        "__syncthreads_and",
                        "__syncthreads_or",
                        "__syncwarp",
                        "__threadfence",
                        "__threadfence_block",
                        "__shfl_sync",
                        "__shfl_up_sync",
                        "__shfl_down_sync",
                        "__shfl_xor_sync",
                        "__ballot_sync",
                        "__all_sync",
                        "__any_sync",
                        "__activemask",
                        "__match_any_sync",
                        "__reduce_add_sync",
                        "__reduce_min_sync",
                        "__reduce_max_sync",
                        // qualifiers that may appear in a declaration inside a kernel
                        "__shared__",
                        "__restrict__",
                        "__align__",
                        // loads and integer intrinsics
                        "__ldg",
                        "__ldcg",
                        "__ldca",
                        "__ldcs",
                        "__ldlu",
                        "__ldcv",
                        "__popc",
                        "__popcll",
                        "__clz",
                        "__clzll",
                        "__ffs",
                        "__ffsll",
                        "__brev",
                        "__brevll",
                        "__mul24",
                        "__umul24",
                        "__mulhi",
                        "__umulhi",
                        "__mul64hi",
                        "__umul64hi",
                        "__sad",
                        "__usad",
                        "__byte_perm",
                        "__funnelshift_l",
                        "__funnelshift_r",
                        // single-precision intrinsics
                        "__fdividef",
                        "__fdiv_rn",
                        "__fdiv_rz",
                        "__fdiv_ru",
                        "__fdiv_rd",
                        "__frsqrt_rn",
                        "__fsqrt_rn",
                        "__fsqrt_rz",
                        "__fsqrt_ru",
                        "__fsqrt_rd",
                        "__frcp_rn",
                        "__frcp_rz",
                        "__frcp_ru",
                        "__frcp_rd",
                        "__fmaf_rn",
                        "__fmaf_rz",
                        "__fmaf_ru",
                        "__fmaf_rd",
                        "__fmul_rn",
                        "__fmul_rz",
                        "__fmul_ru",
                        "__fmul_rd",
                        "__fadd_rn",
                        "__fadd_rz",
                        "__fadd_ru",
                        "__fadd_rd",
                        "__fsub_rn",
                        "__fsub_rz",
                        "__fsub_ru",
                        "__fsub_rd",
                        "__expf",
                        "__exp10f",
                        "__logf",
                        "__log2f",
                        "__log10f",
                        "__powf",
                        "__sinf",
                        "__cosf",
                        "__tanf",
                        "__sincosf",
                        "__saturatef",
                        "__dadd_rn",
                        "__dmul_rn",
                        "__fma_rn",
                        "__drcp_rn",
                        "__dsqrt_rn",
                        "__ddiv_rn",
                        // conversions and reinterpretations
                        "__float2int_rn",
                        "__float2int_rz",
                        "__float2int_ru",
                        "__float2int_rd",
                        "__float2uint_rn",
                        "__float2uint_rz",
                        "__int2float_rn",
                        "__int2float_rz",
                        "__uint2float_rn",
                        "__float_as_int",
                        "__int_as_float",
                        "__float_as_uint",
                        "__uint_as_float",
                        "__double2float_rn",
                        "__double2float_rz",
                        "__float2ll_rn",
                        "__ll2float_rn",
                        "__double_as_longlong",
                        "__longlong_as_double",
                        // fp16 and bf16 types, conversions and arithmetic (cuda_fp16.h, cuda_bf16.h)
                        "__half",
                        "__half2",
                        "__nv_bfloat16",
                        "__nv_bfloat162",
                        "__half_raw",
                        "__nv_bfloat16_raw",
                        "__float2half",
                        "__float2half_rn",
                        "__float2half_rz",
                        "__float2half_ru",
                        "__float2half_rd",
                        "__half2float",
                        "__float2half2_rn",
                        "__floats2half2_rn",
                        "__half22float2",
                        "__float22half2_rn",
                        "__low2float",
                        "__high2float",
                        "__low2half",
                        "__high2half",
                        "__halves2half2",
                        "__half2half2",
                        "__lowhigh2highlow",
                        "__float2bfloat16",
                        "__float2bfloat16_rn",
                        "__float2bfloat16_rz",
                        "__float2bfloat16_ru",
                        "__float2bfloat16_rd",
                        "__bfloat162float",
                        "__float2bfloat162_rn",
                        "__floats2bfloat162_rn",
                        "__bfloat1622float2",
                        "__float22bfloat162_rn",
                        "__low2bfloat16",
                        "__high2bfloat16",
                        "__halves2bfloat162",
                        "__bfloat162bfloat162",
                        "__half_as_short",
                        "__half_as_ushort",
                        "__short_as_half",
                        "__ushort_as_half",
                        "__bfloat16_as_short",
                        "__bfloat16_as_ushort",
                        "__short_as_bfloat16",
                        "__ushort_as_bfloat16",
                        "__hadd",
                        "__hsub",
                        "__hmul",
                        "__hdiv",
                        "__hfma",
                        "__hneg",
                        "__habs",
                        "__hmax",
                        "__hmin",
                        "__hadd_rn",
                        "__hsub_rn",
                        "__hmul_rn",
                        "__hadd_sat",
                        "__hmul_sat",
                        "__hfma_sat",
                        "__hfma_relu",
                        "__hmax_nan",
                        "__hmin_nan",
                        "__hadd2",
                        "__hsub2",
                        "__hmul2",
                        "__h2div",
                        "__hfma2",
                        "__hneg2",
                        "__habs2",
                        "__hmax2",
                        "__hmin2",
                        "__hadd2_rn",
                        "__hmul2_rn",
                        "__heq",
                        "__hne",
                        "__hlt",
                        "__hle",
                        "__hgt",
                        "__hge",
                        "__hequ",
                        "__hneu",
                        "__hltu",
                        "__hleu",
                        "__hgtu",
                        "__hgeu",
                        "__hisnan",
                        "__hisinf",
                        "__heq2",
                        "__hne2",
                        "__hlt2",
                        "__hle2",
                        "__hgt2",
                        "__hge2",
                        "__hisnan2",
                    });
}

// Names that reach past the kernel's own values: the grader and the emulator, the process, the system.
const char* denied_class(std::string_view n) {
    // The emulator's runtime also declares C functions at global scope (`emu_arg_read`, `emu_register_symbol`, …)
    // that its rewriting calls: a fill that called them could feed the checks what it likes.
    if (among(n, {"emu", "wb", "wb04", "Catch", "testing", "workbook"}) || starts_with(n, "EMU_") ||
        starts_with(n, "emu_") || starts_with(n, "WORKBOOK_") || starts_with(n, "WB_") || starts_with(n, "wb_") ||
        starts_with(n, "CATCH_"))
        return "part of the grader's own code";
    if (among(n, {"CUDA_VERSION", "CUDART_VERSION", "__CUDA_API_VERSION"}))
        return "a macro whose value differs between the emulator and a GPU's toolkit";
    if (among(n,
              {"system",       "popen",  "pclose",  "fork",       "vfork",  "clone",         "daemon",    "exit",
               "_exit",        "_Exit",  "abort",   "quick_exit", "atexit", "at_quick_exit", "terminate", "execl",
               "execle",       "execlp", "execv",   "execve",     "execvp", "execvpe",       "fexecve",   "posix_spawn",
               "posix_spawnp", "wait",   "waitpid", "kill",       "raise",  "signal",        "sigaction", "ptrace",
               "prctl",        "setuid", "setgid",  "chroot",     "main"}))
        return "a call that controls the process";
    if (among(n, {"dlopen", "dlsym", "dlvsym", "dlclose", "dladdr", "dlerror", "dlinfo", "dl_iterate_phdr"}))
        return "a call that loads or looks up code at run time";
    if (among(n, {"getenv", "secure_getenv", "setenv", "putenv", "unsetenv", "clearenv", "environ"}))
        return "the process environment";
    if (among(n,
              {"fopen",    "fdopen",   "freopen", "fclose",  "fread",    "fwrite", "fprintf", "fputs",    "fputc",
               "fgets",    "fscanf",   "fflush",  "open",    "openat",   "creat",  "close",   "read",     "write",
               "pread",    "pwrite",   "lseek",   "unlink",  "unlinkat", "remove", "rename",  "truncate", "ftruncate",
               "mkdir",    "rmdir",    "chdir",   "chmod",   "chown",    "link",   "symlink", "readlink", "opendir",
               "readdir",  "stat",     "lstat",   "fstat",   "access",   "dup",    "dup2",    "pipe",     "socket",
               "connect",  "bind",     "listen",  "accept",  "send",     "recv",   "sendto",  "recvfrom", "ioctl",
               "fcntl",    "stdin",    "stdout",  "stderr",  "cin",      "cout",   "cerr",    "clog",     "fstream",
               "ifstream", "ofstream", "filebuf", "tmpfile", "mkstemp",  "fsync",  "sync",    "FILE"}))
        return "a file, stream or descriptor operation";
    if (among(n, {"syscall",        "mmap",   "munmap", "mprotect", "mremap",  "madvise",       "brk",
                  "sbrk",           "malloc", "calloc", "realloc",  "free",    "aligned_alloc", "memalign",
                  "posix_memalign", "valloc", "alloca", "setjmp",   "longjmp", "sigsetjmp",     "siglongjmp"}))
        return "a raw system call or memory management";
    if (among(n, {"thread", "jthread", "async", "pthread_create", "pthread_kill", "pthread_exit", "pthread_cancel"}) ||
        starts_with(n, "pthread_"))
        return "a thread operation";
    if (c_library_pointer_function(n))
        return "a C library function that reads or writes memory through a pointer: no device function on a GPU, "
               "and out of the sight of the emulator's memory checker";
    return nullptr;
}

bool reserved_name(std::string_view n) {
    return starts_with(n, "__") || (n.size() >= 2 && n[0] == '_' && n[1] >= 'A' && n[1] <= 'Z');
}

std::optional<Refusal> refuse_identifier(const Tok& t, const std::set<std::string>& allowed) {
    if (allowed.count(t.text)) return std::nullopt;  // the starter's own names are the kernel's values
    if (const char* why = denied_class(t.text)) return Refusal{t.line, "names " + code_quoted(t.text) + ", " + why};
    if (cuda_device_name(t.text)) return std::nullopt;
    if (starts_with(t.text, "cuda"))
        return Refusal{t.line, "names " + code_quoted(t.text) +
                                   ", the CUDA runtime API: host code, which a kernel cannot "
                                   "call on a GPU and which on the emulator would reach the emulator's own runtime"};
    if (reserved_name(t.text))
        return Refusal{t.line, "names " + code_quoted(t.text) +
                                   ", a name reserved to the compiler and its libraries "
                                   "(it starts with `__` or `_` and a capital letter) that is not one of CUDA's device "
                                   "functions"};
    return std::nullopt;
}

// `#pragma unroll`, `#pragma unroll 4`, `#pragma unroll (ITEMS)`: a loop-unrolling hint the solutions use.
bool unroll_pragma(const Tok& t, const std::set<std::string>& allowed) {
    if (!starts_with(t.text, "# pragma unroll")) return false;
    const std::string rest = t.text.substr(15);
    if (!rest.empty() && rest[0] != ' ') return false;  // `#pragma unrolled`
    const std::vector<Tok> operand = code_tokens(rest);
    for (const auto& o : operand) {
        const bool plain = o.kind == Kind::number ||
                           (o.kind == Kind::punct && among(o.text, {"(", ")", "+", "-", "*", "/"})) ||
                           (o.kind == Kind::identifier && !refuse_identifier(o, allowed));
        if (!plain) return false;
    }
    return true;
}

}  // namespace

std::set<std::string> starter_names(const std::vector<Tok>& pristine) {
    std::set<std::string> names;
    for (const auto& t : pristine)
        if (t.kind == Kind::identifier) names.insert(t.text);
    return names;
}

std::optional<Refusal> refuse_fill(const std::vector<Tok>& toks, std::size_t b, std::size_t e,
                                   const std::set<std::string>& allowed_names) {
    if (e - b > kMaxFillTokens)
        return Refusal{toks[b].line, "is " + std::to_string(e - b) + " tokens long, over the " +
                                         std::to_string(kMaxFillTokens) + " a fill may have"};
    for (std::size_t i = b; i < e; ++i) {
        const Tok& t = toks[i];
        switch (t.kind) {
            case Kind::number: break;
            case Kind::preprocessor:
                if (!unroll_pragma(t, allowed_names))
                    return Refusal{t.line, "holds a preprocessor directive (" + code_quoted(t.text) +
                                               "); a fill is an expression or statements, and only `#pragma unroll` "
                                               "may stand among them"};
                break;
            case Kind::string: return Refusal{t.line, "holds a string literal (" + code_quoted(t.text) + ")"};
            case Kind::character: return Refusal{t.line, "holds a character literal (" + code_quoted(t.text) + ")"};
            case Kind::keyword:
                if (!allowed_keyword(t.text)) return Refusal{t.line, "uses the keyword " + code_quoted(t.text)};
                break;
            case Kind::identifier:
                if (auto r = refuse_identifier(t, allowed_names)) return r;
                break;
            case Kind::punct:
                if (among(t.text, {"#", "##"}))
                    return Refusal{t.line, "holds the preprocessing operator " + code_quoted(t.text)};
                if (t.text == "::")
                    return Refusal{t.line, "names something by qualified name (" +
                                               code_quoted((i > b ? toks[i - 1].text : std::string()) +
                                                           "::" + (i + 1 < e ? toks[i + 1].text : std::string())) +
                                               ")"};
                if (among(t.text, {"<<<", ">>>"}))
                    return Refusal{t.line, "launches a kernel (" + code_quoted(t.text) + ")"};
                if (t.text == "[" && i + 1 < e && toks[i + 1].text == "[")
                    return Refusal{t.line, "holds an attribute (`[[`)"};
                break;
            default: return Refusal{t.line, "holds the stray character " + code_quoted(t.text)};
        }
    }
    return std::nullopt;
}

std::optional<Refusal> refuse_source(const std::string& student, const std::string& pristine) {
    auto line_of = [&](std::size_t offset) { return cxxlex::line_at(student, offset); };
    const auto splices = cxxlex::splice_offsets(student);
    if (splices.size() > cxxlex::splice_offsets(pristine).size())
        return Refusal{line_of(splices.front()),
                       "ends with `\\`, a line splice that joins it to the next line and can hide code from the "
                       "review; remove the backslash"};
    auto trigraphs = [](const std::string& s) {
        std::vector<std::size_t> at;
        for (std::size_t i = 0; i + 2 < s.size(); ++i)
            if (s[i] == '?' && s[i + 1] == '?' &&
                std::string_view("=/'()!<>-").find(s[i + 2]) != std::string_view::npos)
                at.push_back(i);
        return at;
    };
    const auto tri = trigraphs(student);
    if (tri.size() > trigraphs(pristine).size())
        return Refusal{line_of(tri.front()), "holds the trigraph " + code_quoted(student.substr(tri.front(), 3)) +
                                                 ", which a compiler in an older mode reads as another character "
                                                 "(`?\?/` as a backslash); write the character itself"};
    return std::nullopt;
}

}  // namespace workbook::review
