/* simtlab CPU emulator — the SIMTLAB_EMU_* settings (common/settings.hpp is
 * the reference: names, meanings, defaults, valid values). */
#include "common/settings.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

namespace simtlab_emu {
namespace settings {

namespace {

/* The value, or nullptr when unset or empty. */
const char *read(const char *name)
{
    const char *text = std::getenv(name);
    return text && *text ? text : nullptr;
}

/* A number as strtoull reads it (base 0), within [lo, hi]; else the
 * fallback, with a line on stderr. `*set` says whether a valid value was
 * given. Called once per variable (its caller keeps the result), so the
 * line is printed once. */
unsigned long long number(const char *name, const char *text, unsigned long long fallback, unsigned long long lo,
                          unsigned long long hi, bool *set)
{
    if (set)
        *set = false;
    if (!text)
        return fallback;
    char *end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 0);
    if (end == text || *end || value < lo || value > hi) {
        std::fprintf(stderr, "simtlab-emu: ignoring %s=%s (expected a number from %llu to %llu)\n", name, text, lo,
                     hi);
        return fallback;
    }
    if (set)
        *set = true;
    return value;
}

/* A switch: -1 unset, 0 for "0", 1 for "1"; any other value counts as 1, as
 * it always has, and is reported once. */
int on_off(const char *name)
{
    const char *text = read(name);
    if (!text)
        return -1;
    if (std::strcmp(text, "0") == 0)
        return 0;
    if (std::strcmp(text, "1") != 0)
        std::fprintf(stderr, "simtlab-emu: %s=%s is not 0 or 1; taking it as 1\n", name, text);
    return 1;
}

/* Parses "9.0", "8.6", "90" or "86" (also "100", "12.0"). */
bool parse_cc(const char *text, int *major, int *minor)
{
    char *end = nullptr;
    long a = std::strtol(text, &end, 10);
    if (end == text)
        return false;
    if (*end == '.') {
        const char *rest = end + 1;
        long b = std::strtol(rest, &end, 10);
        if (end == rest || *end != '\0' || b < 0 || b > 9)
            return false;
        *major = static_cast<int>(a), *minor = static_cast<int>(b);
    } else {
        if (*end != '\0' || a < 10)
            return false;
        *major = static_cast<int>(a / 10), *minor = static_cast<int>(a % 10);
    }
    return *major >= 1 && *major <= 12;
}

struct cc_value {
    int major, minor;
};

} /* namespace */

std::size_t align()
{
    static const std::size_t value = [] {
        const char *text = read("SIMTLAB_EMU_ALIGN");
        if (!text)
            return std::size_t{16};
        char *end = nullptr;
        const unsigned long v = std::strtoul(text, &end, 10);
        const bool power_of_two = v != 0 && (v & (v - 1)) == 0;
        if (end == text || *end != '\0' || !power_of_two || v < 16 || v > 4096) {
            std::fprintf(stderr, "simtlab-emu: SIMTLAB_EMU_ALIGN=%s is not a power of two from 16 to 4096; using 16\n",
                         text);
            return std::size_t{16};
        }
        return static_cast<std::size_t>(v);
    }();
    return value;
}

void compute_capability(int *major, int *minor)
{
    static const cc_value value = [] {
        cc_value cc{8, 0};
        const char *text = read("SIMTLAB_EMU_CC");
        if (text && !parse_cc(text, &cc.major, &cc.minor)) {
            std::fprintf(stderr, "simtlab-emu: SIMTLAB_EMU_CC=%s is not a compute capability such as 8.0, 9.0 or 90; "
                                 "using 8.0\n", text);
            cc = cc_value{8, 0};
        }
        return cc;
    }();
    *major = value.major, *minor = value.minor;
}

unsigned threads()
{
    static const unsigned value = [] {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        return static_cast<unsigned>(
            number("SIMTLAB_EMU_THREADS", read("SIMTLAB_EMU_THREADS"), cores, 1, 1024, nullptr));
    }();
    return value;
}

std::size_t stack_kib()
{
    static const std::size_t value = static_cast<std::size_t>(
        number("SIMTLAB_EMU_STACK_KB", read("SIMTLAB_EMU_STACK_KB"), 64, 16, 1 << 20, nullptr));
    return value;
}

bool seed(std::uint64_t *value)
{
    /* Read at each launch (the header says why); a bad value is reported
     * once per distinct text, not at every launch. */
    const char *text = read("SIMTLAB_EMU_SEED");
    if (!text) {
        *value = 0;
        return false;
    }
    char *end = nullptr;
    const unsigned long long v = std::strtoull(text, &end, 0);
    if (end != text && *end == '\0') {
        *value = v;
        return true;
    }
    static std::mutex told_lock;
    static std::string &told = *new std::string; /* never destroyed: launches may run in exit handlers */
    {
        std::lock_guard<std::mutex> lock(told_lock);
        if (told != text) {
            told = text;
            std::fprintf(stderr, "simtlab-emu: ignoring SIMTLAB_EMU_SEED=%s (expected a number from 0 to %llu)\n",
                         text, ~0ULL);
        }
    }
    *value = 0;
    return false;
}

bool synccheck()
{
    static const bool value =
        number("SIMTLAB_EMU_SYNCCHECK", read("SIMTLAB_EMU_SYNCCHECK"), 1, 0, 1, nullptr) != 0;
    return value;
}

double spin_limit_s()
{
    static const double value = [] {
        const char *text = read("SIMTLAB_EMU_SPIN_LIMIT_S");
        if (!text)
            return 5.0;
        char *end = nullptr;
        const double v = std::strtod(text, &end);
        if (end != text && *end == '\0' && v > 0)
            return v;
        std::fprintf(stderr, "simtlab-emu: ignoring SIMTLAB_EMU_SPIN_LIMIT_S=%s (expected a number of seconds "
                             "above 0); using 5\n", text);
        return 5.0;
    }();
    return value;
}

bool lockstep()
{
    static const bool value = on_off("SIMTLAB_EMU_LOCKSTEP") != 0;
    return value;
}

int memcheck()
{
    static const int value = on_off("SIMTLAB_EMU_MEMCHECK");
    return value;
}

int racecheck()
{
    static const int value = on_off("SIMTLAB_EMU_RACECHECK");
    return value;
}

namespace {
struct profile_value {
    int setting; /* -1, 0, 1 */
    bool each_launch;
};
const profile_value &profile_setting()
{
    static const profile_value value = [] {
        const char *text = read("SIMTLAB_EMU_PROFILE");
        if (!text)
            return profile_value{-1, false};
        if (std::strcmp(text, "0") == 0)
            return profile_value{0, false};
        if (std::strcmp(text, "launch") == 0)
            return profile_value{1, true};
        if (std::strcmp(text, "1") != 0)
            std::fprintf(stderr, "simtlab-emu: SIMTLAB_EMU_PROFILE=%s is not 0, 1 or launch; taking it as 1\n", text);
        return profile_value{1, false};
    }();
    return value;
}
} /* namespace */

int profile()
{
    return profile_setting().setting;
}

bool profile_each_launch()
{
    return profile_setting().each_launch;
}

std::uint64_t sample_blocks()
{
    /* 0: every block; the cap keeps a negative text (strtoull wraps it) out */
    static const std::uint64_t value = number("SIMTLAB_EMU_SAMPLE_BLOCKS", read("SIMTLAB_EMU_SAMPLE_BLOCKS"), 0, 1,
                                              1ULL << 62, nullptr);
    return value;
}

const char *profile_csv()
{
    /* kept for the life of the process (never destroyed: exit handlers may
     * still profile) */
    static const char *const value = [] {
        const char *text = read("SIMTLAB_EMU_PROFILE_CSV");
        return text ? (new std::string(text))->c_str() : nullptr;
    }();
    return value;
}

} /* namespace settings */
} /* namespace simtlab_emu */
