/* simtlab CPU emulator — the timing model: one launch's SIMT counters and
 * geometry -> a modelled time on a named GPU, and the C API of
 * <simtlab_emu/profile.h> for it (simtlab_emu_model_*).
 *
 * Every figure here is modelled, never measured. emu/docs/model.md states
 * each part's formula, where the model departs from hardware, and the
 * source of every constant of the GPU data files (emu/gpus/<name>.gpu). */
#include "profile/model.hpp"
#include "profile/state.hpp"

#include <dirent.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#ifndef SIMTLAB_EMU_GPUS_DIR
#error "SIMTLAB_EMU_GPUS_DIR must name the folder of the GPU data files (emu/gpus)"
#endif

namespace simtlab_emu {
namespace profile {

namespace {

/* ---- the GPU data files ------------------------------------------------------------ */

struct gpu_spec {
    std::string name;
    std::string arch;      /* sm_90: which rows of resources.txt apply */
    double sms, schedulers, issue_rate, clock_mhz, dram_gb_s, l2_bytes, shared_wavefronts;
    double max_warps, max_blocks, registers, register_unit, max_shared, shared_reserved;
    double lat_global, lat_shared, lat_alu, launch_us;
};

struct key_of {
    const char *key;
    double gpu_spec::*field;
};
const key_of numeric_keys[] = {
    {"sms", &gpu_spec::sms},
    {"schedulers_per_sm", &gpu_spec::schedulers},
    {"issue_per_scheduler_per_clock", &gpu_spec::issue_rate},
    {"clock_mhz", &gpu_spec::clock_mhz},
    {"dram_gb_per_s", &gpu_spec::dram_gb_s},
    {"l2_bytes", &gpu_spec::l2_bytes},
    {"shared_wavefronts_per_sm_per_clock", &gpu_spec::shared_wavefronts},
    {"max_warps_per_sm", &gpu_spec::max_warps},
    {"max_blocks_per_sm", &gpu_spec::max_blocks},
    {"registers_per_sm", &gpu_spec::registers},
    {"register_allocation_unit", &gpu_spec::register_unit},
    {"max_shared_per_sm", &gpu_spec::max_shared},
    {"shared_reserved_per_block", &gpu_spec::shared_reserved},
    {"latency_global_cycles", &gpu_spec::lat_global},
    {"latency_shared_cycles", &gpu_spec::lat_shared},
    {"latency_alu_cycles", &gpu_spec::lat_alu},
    {"launch_us", &gpu_spec::launch_us},
};

std::string gpus_dir()
{
    return SIMTLAB_EMU_GPUS_DIR;
}

/* "a100, h200, rtx4090, t4": the data files' names, sorted. */
std::string known_gpus()
{
    std::vector<std::string> names;
    if (DIR *d = opendir(gpus_dir().c_str())) {
        while (const dirent *e = readdir(d)) {
            const std::size_t n = std::strlen(e->d_name);
            if (n > 4 && std::strcmp(e->d_name + n - 4, ".gpu") == 0)
                names.emplace_back(e->d_name, n - 4);
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    std::string out;
    for (const std::string &s : names)
        out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? std::string("none found in ") + gpus_dir() : out;
}

bool valid_name(const char *name)
{
    if (!*name || std::strlen(name) >= 32)
        return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            return false;
    return true;
}

/* Reads emu/gpus/<name>.gpu: `key = value  # source` lines, blank lines and
 * whole-line comments. Every key of numeric_keys and `arch` must be there. */
bool load_gpu(const char *name, gpu_spec *out, std::string *err)
{
    if (!name || !valid_name(name)) {
        *err = std::string("unknown GPU '") + (name ? name : "(null)") + "' (known: " + known_gpus() + ")";
        return false;
    }
    const std::string path = gpus_dir() + "/" + name + ".gpu";
    std::FILE *f = std::fopen(path.c_str(), "r");
    if (!f) {
        *err = std::string("unknown GPU '") + name + "' (known: " + known_gpus() + ")";
        return false;
    }
    gpu_spec g{};
    g.name = name;
    bool seen[sizeof numeric_keys / sizeof numeric_keys[0]] = {};
    bool have_arch = false;
    char line[1024];
    int lineno = 0;
    bool ok = true;
    while (ok && std::fgets(line, sizeof line, f)) {
        lineno++;
        if (char *hash = std::strchr(line, '#'))
            *hash = '\0';
        char key[64], value[64], extra[8];
        const int got = std::sscanf(line, " %63[A-Za-z0-9_] = %63s %7s", key, value, extra);
        if (got <= 0) {
            char probe[2];
            if (std::sscanf(line, " %1s", probe) == 1) {
                *err = path + ":" + std::to_string(lineno) + ": expected `key = value  # source`";
                ok = false;
            }
            continue;
        }
        if (got != 2) {
            *err = path + ":" + std::to_string(lineno) + ": expected `key = value  # source`";
            ok = false;
            continue;
        }
        if (std::strcmp(key, "arch") == 0) {
            g.arch = value;
            have_arch = true;
            continue;
        }
        bool known = false;
        for (std::size_t i = 0; i < sizeof numeric_keys / sizeof numeric_keys[0]; i++) {
            if (std::strcmp(key, numeric_keys[i].key) != 0)
                continue;
            known = true;
            char *end = nullptr;
            errno = 0;
            const double v = std::strtod(value, &end);
            if (*end || errno || !(v >= 0) || !std::isfinite(v)) {
                *err = path + ":" + std::to_string(lineno) + ": " + key + " = " + value + " is not a number >= 0";
                ok = false;
            }
            g.*(numeric_keys[i].field) = v;
            seen[i] = true;
        }
        if (!known) {
            *err = path + ":" + std::to_string(lineno) + ": unknown key '" + key + "'";
            ok = false;
        }
    }
    std::fclose(f);
    if (!ok)
        return false;
    for (std::size_t i = 0; i < sizeof numeric_keys / sizeof numeric_keys[0]; i++)
        if (!seen[i]) {
            *err = path + ": no value for " + numeric_keys[i].key;
            return false;
        }
    if (!have_arch) {
        *err = path + ": no value for arch";
        return false;
    }
    if (g.sms < 1 || g.schedulers < 1 || g.issue_rate <= 0 || g.clock_mhz <= 0 || g.dram_gb_s <= 0 ||
        g.shared_wavefronts <= 0 || g.max_warps < 1 || g.max_blocks < 1 || g.registers < 1 || g.register_unit < 1) {
        *err = path + ": a count, rate or clock is 0";
        return false;
    }
    *out = g;
    return true;
}

/* ---- registers per thread: build/resources.txt (optional) -------------------------- */

/* SIMTLAB_MODEL_RESOURCES names ptxas's table (a CUDA build's
 * build/resources.txt: file arch regs smem stack spill_st spill_ld kernel).
 * The registers of the row whose kernel matches the launch's name, at the
 * GPU's architecture (else at any), the most of them when a name matches
 * several; 0 when none. */
struct resource_row {
    std::string arch, kernel, base;
    int regs;
};
std::vector<resource_row> resource_rows;
bool resources_read = false;

std::string trim_kernel(std::string k)
{
    if (k.compare(0, 5, "void ") == 0)
        k.erase(0, 5);
    const std::size_t paren = k.find('(');
    if (paren != std::string::npos)
        k.erase(paren);
    while (!k.empty() && k.back() == ' ')
        k.pop_back();
    return k;
}

void read_resources()
{
    if (resources_read)
        return;
    resources_read = true;
    const char *path = std::getenv("SIMTLAB_MODEL_RESOURCES"); /* read once: resources_read */
    if (!path || !*path)
        return;
    std::FILE *f = std::fopen(path, "r");
    if (!f) {
        std::fprintf(stderr, "simtlab-emu model: SIMTLAB_MODEL_RESOURCES=%s cannot be read (%s); registers per "
                     "thread take the default\n", path, std::strerror(errno));
        return;
    }
    char line[4096];
    while (std::fgets(line, sizeof line, f)) {
        char file[256], arch[32];
        int regs, n = 0;
        long smem, stack, sst, sld;
        if (std::sscanf(line, "%255s %31s %d %ld %ld %ld %ld %n", file, arch, &regs, &smem, &stack, &sst, &sld, &n) < 7
            || n == 0)
            continue;
        std::string kernel = trim_kernel(line + n);
        while (!kernel.empty() && (kernel.back() == '\n' || kernel.back() == '\r'))
            kernel.pop_back();
        resource_row r{arch, kernel, kernel.substr(0, kernel.find('<')), regs};
        resource_rows.push_back(r);
    }
    std::fclose(f);
}

int registers_of(const char *launched, const std::string &arch)
{
    read_resources();
    if (!launched || resource_rows.empty())
        return 0;
    std::string k = launched;
    k.erase(std::remove(k.begin(), k.end(), ' '), k.end());
    const std::string base = k.substr(0, k.find('<'));
    int best_exact = 0, best_base = 0;
    bool arch_exact = false, arch_base = false;
    for (const resource_row &r : resource_rows) {
        std::string rk = r.kernel;
        rk.erase(std::remove(rk.begin(), rk.end(), ' '), rk.end());
        const bool here = r.arch == arch;
        if (rk == k) {
            if (here && !arch_exact)
                best_exact = 0, arch_exact = true;
            if (here || !arch_exact)
                best_exact = std::max(best_exact, r.regs);
        } else if (r.base == base) {
            if (here && !arch_base)
                best_base = 0, arch_base = true;
            if (here || !arch_base)
                best_base = std::max(best_base, r.regs);
        }
    }
    return best_exact ? best_exact : best_base;
}

constexpr int default_registers = 32;

/* ---- the selected GPU and the sums --------------------------------------------------- */

std::mutex model_lock;
bool selected = false;
bool select_failed = false;
gpu_spec gpu;
std::string select_error;

simtlab_emu_model_time window_sum{};
double window_longest = -1;
bool have_sum = false;
bool window_opened = false; /* simtlab_emu_profile_begin was called at least once */
simtlab_emu_model_time last_time{};
bool have_last_time = false;

const char *const counts_label = "instruction counts: basic blocks, no SASS weights";
const char *const counts_mixed = "instruction counts: SASS-weighted and basic blocks";

/* SIMTLAB_MODEL_GPU, read once (default h200). Not a SIMTLAB_EMU_* setting
 * of the runtime (common/settings.hpp): the model's own, read here. */
const char *model_gpu_setting()
{
    static const std::string name = [] {
        const char *env = std::getenv("SIMTLAB_MODEL_GPU");
        return std::string(env && *env ? env : "h200");
    }();
    return name.c_str();
}

/* The GPU the environment asks for, at the first launch modelled. */
void select_default_locked()
{
    if (selected || select_failed)
        return;
    const char *name = model_gpu_setting();
    gpu_spec g;
    std::string err;
    if (load_gpu(name, &g, &err)) {
        gpu = g;
        selected = true;
    } else {
        select_failed = true;
        select_error = "SIMTLAB_MODEL_GPU: " + err;
        std::fprintf(stderr, "simtlab-emu model: %s\n", select_error.c_str());
    }
}

void not_modelled(simtlab_emu_model_time &t, const char *why)
{
    t.modelled = 0;
    std::snprintf(t.not_modelled, sizeof t.not_modelled, "not modelled: %s", why);
    t.total_us = t.fixed_us = t.issue_us = t.shared_us = t.dram_us = t.latency_us = -1;
    t.bound = "not modelled";
}

void add_to_window(const simtlab_emu_model_time &t)
{
    if (!have_sum) {
        window_sum = t;
        window_longest = t.modelled ? t.total_us : -1;
        have_sum = true;
        return;
    }
    window_sum.launches += t.launches;
    if (std::strcmp(window_sum.counts, t.counts) != 0)
        std::snprintf(window_sum.counts, sizeof window_sum.counts, "%s", counts_mixed);
    if (!window_sum.modelled)
        return; /* the first reason stays */
    if (!t.modelled) {
        const int launches = window_sum.launches;
        window_sum = t;
        window_sum.launches = launches;
        return;
    }
    window_sum.total_us += t.total_us;
    window_sum.fixed_us += t.fixed_us;
    window_sum.issue_us += t.issue_us;
    window_sum.shared_us += t.shared_us;
    window_sum.dram_us += t.dram_us;
    window_sum.latency_us += t.latency_us;
    window_sum.sample_scale = std::max(window_sum.sample_scale, t.sample_scale);
    if (t.total_us > window_longest) {
        window_longest = t.total_us;
        window_sum.bound = t.bound;
    }
}

} /* namespace */

/* ---- one launch ---------------------------------------------------------------------- */

void model_launch(launch_result &r, const launch_inputs &in, bool in_window)
{
    std::lock_guard<std::mutex> lock(model_lock);
    select_default_locked();
    const simtlab_emu_profile_figures &fig = r.fig;
    /* SASS weights for the selected GPU's architecture (profile/model_sass.cpp),
     * where the table has the kernel: before anything reads fig, since the
     * diverged counts of predicated lines are dropped from it */
    sass_weighted sass{};
    const bool weighted = selected && sass_weigh(r, gpu.arch, &sass);
    simtlab_emu_model_time t{};
    t.launches = 1;
    t.sample_scale = in.scale;
    if (weighted)
        std::snprintf(t.counts, sizeof t.counts, "instruction counts: SASS-weighted (%s, nvdisasm)", gpu.arch.c_str());
    else
        std::snprintf(t.counts, sizeof t.counts, "%s", counts_label);
    std::snprintf(t.kernel, sizeof t.kernel, "%s", fig.kernel);
    if (!selected) {
        std::snprintf(t.gpu, sizeof t.gpu, "%s", "?");
        not_modelled(t, select_error.c_str());
    } else {
        std::snprintf(t.gpu, sizeof t.gpu, "%s", gpu.name.c_str());
    }
    if (selected && in.cooperative)
        not_modelled(t, "a cooperative launch (grid-wide sync: every block resident at once; the emulator does "
                        "not count its blocks)");
    else if (selected && in.device_launch)
        not_modelled(t, "dynamic parallelism (a grid launched from device code, or one that launched grids)");
    else if (selected && !fig.complete)
        not_modelled(t, "the launch failed, so its counters cover only part of it");
    else if (selected && fig.blocks == 0)
        not_modelled(t, "no block was counted");
    if (selected && t.modelled == 0 && t.not_modelled[0]) {
        /* decided above */
    } else if (selected) {
        t.modelled = 1;
        const gpu_spec &g = gpu;
        const double clock_hz = g.clock_mhz * 1e6;
        const double threads = 1.0 * in.block.x * in.block.y * in.block.z;
        const double wpb = std::ceil(threads / 32.0);
        const double blocks = static_cast<double>(fig.blocks);
        const double warps = std::max(1.0, static_cast<double>(fig.warps));
        int regs = registers_of(fig.kernel, g.arch);
        t.registers_known = regs > 0;
        if (regs <= 0)
            regs = default_registers;
        t.registers = regs;
        /* occupancy: blocks per SM each resource allows */
        const double regs_per_warp = std::ceil(regs * 32.0 / g.register_unit) * g.register_unit;
        const double by_warps = std::floor(g.max_warps / wpb);
        const double by_regs = std::floor(g.registers / (regs_per_warp * wpb));
        const double smem = static_cast<double>(in.static_shared + in.dynamic_shared);
        const double by_shared = smem > 0 ? std::floor(g.max_shared / (smem + g.shared_reserved)) : g.max_blocks;
        const double per_sm = std::max(1.0, std::min({g.max_blocks, by_warps, by_regs, by_shared}));
        t.blocks_per_sm = static_cast<int>(per_sm);
        const double busiest = std::ceil(blocks / g.sms);             /* blocks on the busiest SM */
        const double rounds = std::ceil(busiest / per_sm);            /* waves on it */
        t.waves = rounds;
        const double resident_warps = std::min(per_sm, busiest) * wpb; /* per SM at once */
        const double active_schedulers = std::min(g.schedulers, resident_warps);
        /* issue: warp instructions (basic blocks + memory, atomic and barrier
         * instructions; or the SASS-weighted lines + the others + barriers) */
        const double counted = weighted ? sass.instructions
                                        : static_cast<double>(fig.inst_executed + fig.gld_requests + fig.gst_requests +
                                                              fig.shld_requests + fig.shst_requests +
                                                              fig.global_atomics + fig.shared_atomics);
        const double insts = counted + static_cast<double>(fig.barriers) * wpb;
        const double per_warp = insts / warps;
        const double issue_cycles = busiest * wpb * per_warp / (active_schedulers * g.issue_rate);
        t.issue_us = issue_cycles / clock_hz * 1e6;
        /* shared: wavefronts on the busiest SM */
        const double wavefronts = static_cast<double>(fig.shld_wavefronts + fig.shst_wavefronts + fig.shared_atomics);
        t.shared_us = wavefronts * (busiest / blocks) / g.shared_wavefronts / clock_hz * 1e6;
        /* DRAM: each distinct sector once (loads read it, stores write it back);
         * repeated sectors hit in L2 while the footprint fits, else miss in
         * proportion to how far the footprint exceeds L2 */
        const double uniq = static_cast<double>(in.unique_ld_sectors + in.unique_st_sectors);
        const double all = static_cast<double>(fig.gld_sectors + fig.gst_sectors);
        const double repeats = std::max(0.0, all - uniq);
        const double footprint = uniq * 32.0;
        const double miss = footprint > g.l2_bytes ? 1.0 - g.l2_bytes / footprint : 0.0;
        t.dram_bytes = footprint + repeats * 32.0 * miss;
        t.dram_us = t.dram_bytes / (g.dram_gb_s * 1e9) * 1e6;
        /* latency: one warp's dependent chain, each wave on the busiest SM.
         * Global loads: Little's law. A warp's loads of one barrier interval
         * are taken as independent (the emulator does not follow loaded
         * values into addresses), so they are in flight at once: the chain holds
         * one global latency per barrier interval that loads (load_phases),
         * not one per load. Equivalently, requests in flight per SM =
         * resident warps x requests per warp / steps per warp, and
         * requests on the SM x latency / in flight = waves x steps x latency. */
        const double steps_per_warp = static_cast<double>(in.load_phases) / warps;
        const double shared_per_warp = static_cast<double>(fig.shld_requests + fig.shared_atomics) / warps;
        const double chain = per_warp * g.lat_alu + steps_per_warp * g.lat_global + shared_per_warp * g.lat_shared;
        t.latency_us = rounds * chain / clock_hz * 1e6;
        t.fixed_us = g.launch_us;
        struct part {
            double us;
            const char *name;
        } parts[] = {{t.issue_us, "issue"}, {t.shared_us, "shared"}, {t.dram_us, "dram"}, {t.latency_us, "latency"}};
        const part *top = &parts[0];
        for (const part &p : parts)
            if (p.us > top->us)
                top = &p;
        t.total_us = t.fixed_us + top->us;
        t.bound = t.fixed_us >= top->us ? "fixed" : top->name;
    }
    last_time = t;
    have_last_time = true;
    if (in_window || !window_opened)
        add_to_window(t);
}

void model_window_reset()
{
    std::lock_guard<std::mutex> lock(model_lock);
    window_opened = true;
    have_sum = false;
    window_sum = simtlab_emu_model_time{};
    window_longest = -1;
}

} /* namespace profile */
} /* namespace simtlab_emu */

using namespace simtlab_emu::profile;

extern "C" {

int simtlab_emu_model_select(const char *name, char *err, size_t cap)
{
    std::lock_guard<std::mutex> lock(model_lock);
    if (!name)
        name = model_gpu_setting();
    gpu_spec g;
    std::string why;
    if (!load_gpu(name, &g, &why)) {
        if (err && cap)
            std::snprintf(err, cap, "simtlab_emu_model_select: %s", why.c_str());
        return -1;
    }
    gpu = g;
    selected = true;
    select_failed = false;
    select_error.clear();
    if (err && cap)
        err[0] = '\0';
    return 0;
}

const char *simtlab_emu_model_gpu(void)
{
    std::lock_guard<std::mutex> lock(model_lock);
    select_default_locked();
    return selected ? gpu.name.c_str() : "";
}

int simtlab_emu_model_total(simtlab_emu_model_time *sum_out)
{
    std::lock_guard<std::mutex> lock(model_lock);
    if (!sum_out || !have_sum)
        return 1;
    *sum_out = window_sum;
    if (window_sum.launches > 1)
        std::snprintf(sum_out->kernel, sizeof sum_out->kernel, "%s", "(several kernels)");
    return 0;
}

int simtlab_emu_model_last(simtlab_emu_model_time *out)
{
    std::lock_guard<std::mutex> lock(model_lock);
    if (!out || !have_last_time)
        return 1;
    *out = last_time;
    return 0;
}

} /* extern "C" */
