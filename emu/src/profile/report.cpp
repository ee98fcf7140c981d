/* simtlab CPU emulator — the SIMT counters' reports: source lines for the
 * sites (resolved once each, from the debug information, by an addr2line
 * subprocess: at report time, never per access), the table per kernel
 * printed at exit (SIMTLAB_EMU_PROFILE=1, or a `slcc --profile` build), the
 * table after every launch (SIMTLAB_EMU_PROFILE=launch), and the CSV
 * (SIMTLAB_EMU_PROFILE_CSV=path, one line per profiled launch). */
#include "common/settings.hpp"
#include "profile/state.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

extern char **environ;

namespace simtlab_emu {
namespace profile {

namespace {

struct location {
    std::string file;
    int line;
};

std::mutex lines_lock; /* guards the two below */
std::unordered_map<std::uintptr_t, location> &resolved()
{
    static auto *map = new std::unordered_map<std::uintptr_t, location>();
    return *map;
}

/* Files of the emulator's own headers and the system's: a site inlined
 * from them is reported at the line of the kernel that called them. */
bool is_library_file(const std::string &f)
{
    return f.find("/simtlab_emu/") != std::string::npos || f.rfind("/usr/", 0) == 0 ||
           f.find("/emu/include/") != std::string::npos;
}

} /* namespace */

bool is_dynamic_elf(const char *path)
{
    FILE *f = std::fopen(path, "rb");
    if (!f)
        return true;
    Elf64_Ehdr h;
    const bool ok = std::fread(&h, sizeof h, 1, f) == 1;
    std::fclose(f);
    return !ok || h.e_type == ET_DYN;
}

namespace {

/* Runs addr2line -i -a on `addrs` in `module`; parses its groups of lines
 * ("0x..." then the innermost location, then the locations it was inlined
 * into) and keeps, per address, the first that is not a library file. */
void run_addr2line(const std::string &module, const std::vector<std::uintptr_t> &pcs, std::uintptr_t bias)
{
    for (std::size_t start = 0; start < pcs.size(); start += 256) {
        const std::size_t end = std::min(pcs.size(), start + 256);
        std::vector<std::string> args{"addr2line", "-i", "-a", "-e", module};
        for (std::size_t i = start; i < end; i++) {
            char text[32];
            std::snprintf(text, sizeof text, "0x%zx", static_cast<std::size_t>(pcs[i] - 1 - bias));
            args.push_back(text);
        }
        std::vector<char *> argv;
        for (std::string &a : args)
            argv.push_back(&a[0]);
        argv.push_back(nullptr);
        int out[2];
        if (pipe(out) != 0)
            return;
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        posix_spawn_file_actions_addclose(&actions, out[0]);
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", 0 /* O_RDONLY */, 0);
        pid_t pid = -1;
        const int spawned = posix_spawnp(&pid, "addr2line", &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        close(out[1]);
        std::string text;
        if (spawned == 0) {
            char buf[4096];
            ssize_t got;
            while ((got = read(out[0], buf, sizeof buf)) > 0)
                text.append(buf, static_cast<std::size_t>(got));
            int status = 0;
            waitpid(pid, &status, 0);
        }
        close(out[0]);
        if (spawned != 0)
            return;
        /* Parse. */
        std::size_t index = start - 1;
        bool have = false;
        std::size_t pos = 0;
        while (pos < text.size()) {
            std::size_t nl = text.find('\n', pos);
            if (nl == std::string::npos)
                nl = text.size();
            std::string line = text.substr(pos, nl - pos);
            pos = nl + 1;
            if (line.rfind("0x", 0) == 0) {
                index++;
                have = false;
                continue;
            }
            if (index >= end || have)
                continue;
            const std::size_t disc = line.find(" (discriminator");
            if (disc != std::string::npos)
                line.resize(disc);
            const std::size_t colon = line.rfind(':');
            if (colon == std::string::npos)
                continue;
            location loc{line.substr(0, colon), std::atoi(line.c_str() + colon + 1)};
            if (loc.file == "??" || is_library_file(loc.file))
                continue; /* an outer frame may be the kernel's */
            resolved()[pcs[index]] = loc;
            have = true;
        }
    }
}

/* Resolves every pc of `pcs` not resolved yet (under lines_lock). */
void resolve(const std::vector<std::uintptr_t> &pcs)
{
    std::map<std::string, std::pair<std::uintptr_t, std::vector<std::uintptr_t>>> by_module;
    for (std::uintptr_t pc : pcs) {
        if (resolved().count(pc))
            continue;
        resolved()[pc] = location{"?", 0};
        Dl_info info;
        if (!dladdr(reinterpret_cast<void *>(pc - 1), &info) || !info.dli_fname)
            continue;
        std::string module = info.dli_fname;
        if (module.empty() || module.find('/') == std::string::npos) {
            char self[4096];
            const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
            if (n <= 0)
                continue;
            self[n] = '\0';
            module = self;
        }
        auto &entry = by_module[module];
        entry.first = reinterpret_cast<std::uintptr_t>(info.dli_fbase);
        entry.second.push_back(pc);
    }
    for (auto &m : by_module)
        run_addr2line(m.first, m.second.second, is_dynamic_elf(m.first.c_str()) ? m.second.first : 0);
}

std::string short_name(const std::string &path)
{
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

/* The modelled time (profile/model.cpp) of one launch, or of a kernel's
 * launches summed: every part is a sum over the launches. */
struct model_sum {
    bool any = false;      /* a launch was seen */
    bool modelled = true;  /* every launch seen was modelled */
    std::string gpu, why;  /* the GPU; the first reason a launch was not modelled */
    double total_us = 0, fixed_us = 0, issue_us = 0, shared_us = 0, dram_us = 0, latency_us = 0;
};

/* The last launch's modelled time, as simtlab_emu_model_last gives it. */
model_sum last_model()
{
    model_sum m;
    simtlab_emu_model_time t;
    if (simtlab_emu_model_last(&t) != 0)
        return m;
    m.any = true;
    m.gpu = t.gpu;
    if (!t.modelled) {
        m.modelled = false;
        m.why = t.not_modelled;
        return m;
    }
    m.total_us = t.total_us, m.fixed_us = t.fixed_us, m.issue_us = t.issue_us;
    m.shared_us = t.shared_us, m.dram_us = t.dram_us, m.latency_us = t.latency_us;
    return m;
}

void add_model(model_sum &into, const model_sum &from)
{
    if (!from.any)
        return;
    if (!into.any)
        into.gpu = from.gpu;
    into.any = true;
    if (!from.modelled && into.modelled) {
        into.modelled = false;
        into.why = from.why;
    }
    into.total_us += from.total_us, into.fixed_us += from.fixed_us, into.issue_us += from.issue_us;
    into.shared_us += from.shared_us, into.dram_us += from.dram_us, into.latency_us += from.latency_us;
}

/* One line of the tables: the modelled time and its parts. */
void print_model(const model_sum &m)
{
    if (!m.any)
        return;
    if (!m.modelled) {
        std::fprintf(stderr, "  %-22s %s\n", "modelled time", m.why.c_str());
        return;
    }
    std::fprintf(stderr,
                 "  %-22s total_us %.3f = fixed_us %.3f + max(issue_us %.3f, shared_us %.3f, dram_us %.3f, "
                 "latency_us %.3f) per launch, summed; modelled on %s, not measured (emu/docs/model.md)\n",
                 "modelled time", m.total_us, m.fixed_us, m.issue_us, m.shared_us, m.dram_us, m.latency_us,
                 m.gpu.c_str());
}

/* Per kernel, every launch's sites summed, for the table at exit. */
struct kernel_sum {
    std::string kernel;
    unsigned long long launches;
    launch_result r;
    model_sum m;
};
std::mutex sums_lock;
std::vector<kernel_sum> &sums()
{
    static auto *v = new std::vector<kernel_sum>();
    return *v;
}

void add_into(launch_result &into, const launch_result &from)
{
    simtlab_emu_profile_figures &f = into.fig;
    f.blocks += from.fig.blocks;
    f.threads += from.fig.threads;
    f.warps += from.fig.warps;
    f.barriers += from.fig.barriers;
    f.complete = f.complete && from.fig.complete;
    for (const site_result &s : from.sites) {
        auto found = std::find_if(into.sites.begin(), into.sites.end(), [&](const site_result &t) {
            return t.site == s.site && t.kind == s.kind;
        });
        if (found == into.sites.end()) {
            into.sites.push_back(s);
        } else {
            found->c.issues += s.c.issues;
            found->c.lanes += s.c.lanes;
            found->c.units += s.c.units;
            found->c.ideal += s.c.ideal;
            found->c.diverged += s.c.diverged;
        }
        add_site(f, s.kind, s.c);
    }
}

void print_at_exit()
{
    std::lock_guard<std::mutex> lock(sums_lock);
    for (const kernel_sum &k : sums()) {
        char title[64];
        std::snprintf(title, sizeof title, "%llu launch%s", k.launches, k.launches == 1 ? "" : "es");
        print_table(k.r, 10, title);
        print_model(k.m);
    }
}

void write_csv(const simtlab_emu_profile_figures &f, const model_sum &m)
{
    const char *path = settings::profile_csv(); /* read once (common/settings.hpp) */
    if (!path)
        return;
    FILE *out = std::fopen(path, "a");
    if (!out) {
        std::fprintf(stderr, "simtlab-emu: SIMTLAB_EMU_PROFILE_CSV=%s: cannot open it for appending\n", path);
        return;
    }
    if (std::ftell(out) == 0)
        std::fputs("kernel,launch_file,launch_line,complete,blocks,threads,warps,"
                   "smsp__inst_executed.sum,smsp__thread_inst_executed.sum,"
                   "smsp__thread_inst_executed_per_inst_executed.ratio,"
                   "smsp__sass_branch_targets_threads_divergent.sum,"
                   "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
                   "global_ld_sectors_ideal,"
                   "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,"
                   "global_st_sectors_ideal,"
                   "smsp__inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,"
                   "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,"
                   "smsp__inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,"
                   "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,"
                   "smsp__inst_executed_op_global_atom.sum,smsp__inst_executed_op_shared_atom.sum,atomic_lanes,"
                   "barriers,source,model_gpu,model_total_us,model_fixed_us,model_issue_us,model_shared_us,"
                   "model_dram_us,model_latency_us\n",
                   out);
    std::string kernel = f.kernel;
    for (char &c : kernel)
        if (c == '"')
            c = '\'';
    std::fprintf(out,
                 "\"%s\",\"%s\",%d,%d,%llu,%llu,%llu,%llu,%llu,%.4f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
                 "%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,modelled by the emulator,",
                 kernel.c_str(), f.launch_file, f.launch_line, f.complete, f.blocks, f.threads, f.warps,
                 f.inst_executed, f.thread_inst_executed, f.thread_inst_per_inst, f.branches_diverged,
                 f.gld_requests, f.gld_sectors, f.gld_sectors_ideal, f.gst_requests, f.gst_sectors,
                 f.gst_sectors_ideal, f.shld_requests, f.shld_wavefronts, f.shld_bank_conflicts, f.shst_requests,
                 f.shst_wavefronts, f.shst_bank_conflicts, f.global_atomics, f.shared_atomics, f.atomic_lanes,
                 f.barriers);
    /* the modelled time's parts; empty where the launch was not modelled */
    if (m.any && m.modelled)
        std::fprintf(out, "%s,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", m.gpu.c_str(), m.total_us, m.fixed_us, m.issue_us,
                     m.shared_us, m.dram_us, m.latency_us);
    else
        std::fprintf(out, "%s,,,,,,\n", m.gpu.c_str());
    std::fclose(out);
}

double ratio(unsigned long long a, unsigned long long b)
{
    return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

} /* namespace */

int env_setting()
{
    return settings::profile(); /* read once (common/settings.hpp) */
}

bool describe_site(const void *pc, char *file, std::size_t file_cap, int *line)
{
    const auto p = reinterpret_cast<std::uintptr_t>(pc);
    std::lock_guard<std::mutex> lock(lines_lock);
    resolve({p});
    const location &loc = resolved()[p];
    if (file && file_cap)
        std::snprintf(file, file_cap, "%s", loc.file.c_str());
    if (line)
        *line = loc.line;
    return loc.line > 0;
}

void site_locations(const std::vector<std::uintptr_t> &pcs, std::vector<std::pair<std::string, int>> *out)
{
    std::lock_guard<std::mutex> lock(lines_lock);
    resolve(pcs);
    out->clear();
    for (std::uintptr_t pc : pcs) {
        const location &loc = resolved()[pc];
        out->emplace_back(loc.file, loc.line);
    }
}

std::vector<simtlab_emu_profile_line> lines_of(const launch_result &r)
{
    std::vector<std::uintptr_t> pcs;
    for (const site_result &s : r.sites)
        pcs.push_back(site_pc(s.site));
    std::map<std::pair<std::string, int>, simtlab_emu_profile_line> by_line;
    {
        std::lock_guard<std::mutex> lock(lines_lock);
        resolve(pcs);
        for (std::size_t i = 0; i < r.sites.size(); i++) {
            const location &loc = resolved()[pcs[i]];
            simtlab_emu_profile_line &l = by_line[{loc.file, loc.line}];
            std::snprintf(l.file, sizeof l.file, "%s", loc.file.c_str());
            l.line = loc.line;
            const site_counts &c = r.sites[i].c;
            add_block_and_memory(l, r.sites[i].kind, c);
            if (r.sites[i].kind == ev_gatom || r.sites[i].kind == ev_satom)
                l.atomics += c.issues;
        }
    }
    std::vector<simtlab_emu_profile_line> lines;
    for (auto &e : by_line)
        lines.push_back(e.second);
    auto weight = [](const simtlab_emu_profile_line &l) {
        return l.inst_executed + l.gld_requests + l.gst_requests + l.shld_wavefronts + l.shst_wavefronts + l.atomics;
    };
    std::stable_sort(lines.begin(), lines.end(), [&](const simtlab_emu_profile_line &a, const simtlab_emu_profile_line &b) {
        return weight(a) > weight(b);
    });
    return lines;
}

void print_table(const launch_result &r, std::size_t max_lines, const char *title)
{
    const simtlab_emu_profile_figures &f = r.fig;
    FILE *o = stderr;
    std::fprintf(o,
                 "\nsimtlab-emu profile: %s (%s), %llu blocks, %llu threads%s -- every figure modelled by the "
                 "emulator, not measured on a GPU\n",
                 f.kernel, title, f.blocks, f.threads, f.complete ? "" : " (a block failed: partial)");
    std::fprintf(o, "  %-22s %9.1f%%  avg %.1f of 32 lanes per basic block  smsp__thread_inst_executed_per_inst_executed.ratio\n",
                 "SIMT efficiency", 100.0 * f.simt_efficiency, f.thread_inst_per_inst);
    std::fprintf(o, "  %-22s %10llu  smsp__sass_branch_targets_threads_divergent.sum\n", "diverged branches",
                 f.branches_diverged);
    std::fprintf(o, "  %-22s %10llu  %.2f sectors/request (ideal %.2f)  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum / requests\n",
                 "global load requests", f.gld_requests, ratio(f.gld_sectors, f.gld_requests),
                 ratio(f.gld_sectors_ideal, f.gld_requests));
    std::fprintf(o, "  %-22s %10llu  %.2f sectors/request (ideal %.2f)  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum / requests\n",
                 "global store requests", f.gst_requests, ratio(f.gst_sectors, f.gst_requests),
                 ratio(f.gst_sectors_ideal, f.gst_requests));
    std::fprintf(o, "  %-22s %10llu  %llu bank conflicts  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\n",
                 "shared load requests", f.shld_requests, f.shld_bank_conflicts);
    std::fprintf(o, "  %-22s %10llu  %llu bank conflicts  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\n",
                 "shared store requests", f.shst_requests, f.shst_bank_conflicts);
    std::fprintf(o, "  %-22s %10llu global, %llu shared (warp-level; %llu lanes)\n", "atomics", f.global_atomics,
                 f.shared_atomics, f.atomic_lanes);
    std::fprintf(o, "  %-22s %10llu  __syncthreads rounds, all blocks\n", "barriers", f.barriers);
    if (!max_lines)
        return;
    const std::vector<simtlab_emu_profile_line> lines = lines_of(r);
    std::fprintf(o, "  hottest lines (modelled):   %12s %6s %8s | %10s %7s | %10s %7s | %9s %9s | %9s %9s\n",
                 "warp-blocks", "SIMT%", "diverged", "gld req", "sec/req", "gst req", "sec/req", "shld req",
                 "conflicts", "shst req", "conflicts");
    for (std::size_t i = 0; i < lines.size() && i < max_lines; i++) {
        const simtlab_emu_profile_line &l = lines[i];
        char where[64];
        std::snprintf(where, sizeof where, "%s:%d", short_name(l.file).c_str(), l.line);
        std::fprintf(o, "    %-25s %12llu %5.1f%% %8llu | %10llu %7.2f | %10llu %7.2f | %9llu %9llu | %9llu %9llu\n",
                     where, l.inst_executed, 100.0 * ratio(l.thread_inst_executed, 32 * l.inst_executed),
                     l.branches_diverged, l.gld_requests, ratio(l.gld_sectors, l.gld_requests), l.gst_requests,
                     ratio(l.gst_sectors, l.gst_requests), l.shld_requests, l.shld_bank_conflicts, l.shst_requests,
                     l.shst_bank_conflicts);
    }
}

void report_launch(const launch_result &r, bool whole_run)
{
    const model_sum m = last_model(); /* model_launch ran before this (profile.cpp) */
    write_csv(r.fig, m);
    if (settings::profile_each_launch()) { /* SIMTLAB_EMU_PROFILE=launch */
        print_table(r, 10, "this launch");
        print_model(m);
        return;
    }
    /* The table at exit is for runs profiled as a whole (the variable, or
     * a --profile build), not for a program that calls the C API around
     * its own launches and prints what it wants. */
    if (!whole_run)
        return;
    std::lock_guard<std::mutex> lock(sums_lock);
    static bool registered = false;
    if (!registered)
        registered = std::atexit(print_at_exit) == 0;
    for (kernel_sum &k : sums())
        if (k.kernel == r.fig.kernel) {
            k.launches++;
            add_into(k.r, r);
            add_model(k.m, m);
            return;
        }
    kernel_sum k{r.fig.kernel, 1, launch_result{}, model_sum{}};
    add_model(k.m, m);
    std::snprintf(k.r.fig.kernel, sizeof k.r.fig.kernel, "%s", r.fig.kernel);
    k.r.fig.complete = 1;
    add_into(k.r, r);
    sums().push_back(k);
}

} /* namespace profile */
} /* namespace simtlab_emu */
