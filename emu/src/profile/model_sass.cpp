/* simtlab CPU emulator — the timing model's SASS weights: a launch's
 * warp-level executions per source line, weighted by that line's SASS
 * instructions per execution from a table that scripts/sass-table.py writes
 * where a CUDA toolkit exists (build/sass.txt: nvcc -lineinfo -cubin,
 * nvdisasm -c -gi). emu/docs/model.md ("SASS weights") states the rule and
 * where it is approximate.
 *
 * Per line L of the launched kernel that the table has (file base name and
 * line, the innermost non-library location, as the counters resolve a site):
 *   E  the warp-level executions of the line's basic-block sites (else of its
 *      memory sites), B the number of those sites that ran;
 *   C  the line's copies in SASS (the table's `copies`);
 *   n = E / max(1, B / C)       executions of the line, over its copies
 *                               (GCC may split one execution over several
 *                               basic blocks of the line);
 *   I(L) = n x loop / C + min(n, warps x C) x top / C
 *                               (an instruction outside every SASS loop runs
 *                               at most once per warp and copy).
 * Lines the table lacks count as the counters do (one per basic block, one
 * per memory instruction). A line without a conditional jump in SASS
 * (`branches` = 0) cannot split a warp: its sites' diverged counts are
 * dropped from the figures. */
#include "profile/model.hpp"
#include "profile/state.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace simtlab_emu {
namespace profile {

namespace {

struct sass_row {
    double loop, top, copies;
    int branches;
    std::vector<std::string> loops; /* the SASS loops holding the line's loop instructions */
    bool single = false;            /* one copy, in one loop (in each instance) */
};
/* arch -> kernel (no blanks) -> (file base name, line) -> row */
using line_key = std::pair<std::string, int>;
using kernel_rows = std::map<line_key, sass_row>;
std::map<std::string, std::map<std::string, kernel_rows>> table;
bool table_read = false;
std::string table_path;

std::string no_blanks(std::string s)
{
    s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
    return s;
}

std::string base_name(const std::string &path)
{
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

/* SIMTLAB_MODEL_SASS names the table; unset, the build's own
 * (SIMTLAB_EMU_SASS_TABLE, profile/model_sass.cpp's compile definition, where
 * the build writes one); set and empty: none. Read once. */
void read_table()
{
    if (table_read)
        return;
    table_read = true;
    const char *env = std::getenv("SIMTLAB_MODEL_SASS");
    std::string path;
    if (env)
        path = env;
#ifdef SIMTLAB_EMU_SASS_TABLE
    else
        path = SIMTLAB_EMU_SASS_TABLE;
#endif
    if (path.empty())
        return;
    std::FILE *f = std::fopen(path.c_str(), "r");
    if (!f) {
        if (env) /* the build's default may not be written yet: no table, silently */
            std::fprintf(stderr, "simtlab-emu model: SIMTLAB_MODEL_SASS=%s cannot be read (%s); instruction counts "
                         "stay basic blocks\n", path.c_str(), std::strerror(errno));
        return;
    }
    table_path = path;
    char line[4096];
    while (std::fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        std::vector<std::string> cols;
        std::string cur;
        for (const char *p = line; *p && *p != '\n' && *p != '\r'; p++) {
            if (*p == '\t') {
                cols.push_back(cur);
                cur.clear();
            } else {
                cur += *p;
            }
        }
        cols.push_back(cur);
        if (cols.size() != 9)
            continue;
        sass_row r{std::atof(cols[4].c_str()), std::atof(cols[5].c_str()), std::atof(cols[6].c_str()),
                   std::atoi(cols[7].c_str()), {}};
        for (std::size_t at = 0; cols[8] != "-" && at < cols[8].size();) {
            std::size_t comma = cols[8].find(',', at);
            if (comma == std::string::npos)
                comma = cols[8].size();
            r.loops.push_back(cols[8].substr(at, comma - at));
            at = comma + 1;
        }
        r.single = r.loops.size() == 1 && r.copies == 1;
        const int ln = std::atoi(cols[3].c_str());
        if (ln <= 0 || r.copies < 1 || r.loop < 0 || r.top < 0)
            continue;
        table[cols[0]][no_blanks(cols[1])][{cols[2], ln}] = r;
    }
    std::fclose(f);
}

/* The rows of the launched kernel at `arch`: the instance the launch names,
 * else the mean over the instances of its name (a launch written with a
 * template parameter, `reduce_v6<BLOCK>`, names none). Empty: not known. */
kernel_rows rows_of(const char *launched, const std::string &arch)
{
    auto a = table.find(arch);
    if (!launched || a == table.end())
        return {};
    const std::string k = no_blanks(launched);
    auto exact = a->second.find(k);
    if (exact != a->second.end())
        return exact->second;
    const std::string base = k.substr(0, k.find('<'));
    std::map<line_key, std::pair<sass_row, int>> sum;
    std::map<line_key, bool> single;
    int instances = 0;
    for (const auto &e : a->second) {
        if (e.first.substr(0, e.first.find('<')) != base)
            continue;
        instances++;
        for (const auto &l : e.second) {
            auto &s = sum[l.first];
            s.first.loop += l.second.loop, s.first.top += l.second.top, s.first.copies += l.second.copies;
            s.first.branches = std::max(s.first.branches, l.second.branches);
            for (const std::string &id : l.second.loops)
                s.first.loops.push_back(e.first + "@" + id);
            auto one = single.find(l.first);
            single[l.first] = (one == single.end() || one->second) && l.second.single;
            s.second++;
        }
    }
    kernel_rows out;
    if (!instances)
        return out;
    for (const auto &s : sum) /* a line some instances lack counts 0 there */
        out[s.first] = sass_row{s.second.first.loop / instances, s.second.first.top / instances,
                                std::max(1.0, s.second.first.copies / s.second.second), s.second.first.branches,
                                s.second.first.loops, single[s.first]};
    return out;
}

bool trace_on()
{
    static const bool on = [] {
        const char *e = std::getenv("SIMTLAB_MODEL_SASS_TRACE");
        return e && *e && std::strcmp(e, "0") != 0;
    }();
    return on;
}

} /* namespace */

bool sass_weigh(launch_result &r, const std::string &arch, sass_weighted *out)
{
    read_table();
    const kernel_rows rows = rows_of(r.fig.kernel, arch);
    if (rows.empty())
        return false;
    std::vector<std::uintptr_t> pcs;
    for (const site_result &s : r.sites)
        pcs.push_back(site_pc(s.site));
    std::vector<std::pair<std::string, int>> where;
    site_locations(pcs, &where);
    struct line_acc {
        double block_issues = 0, mem_issues = 0;
        int block_sites = 0, mem_sites = 0;
        std::vector<std::size_t> sites;
    };
    std::map<line_key, line_acc> lines;
    for (std::size_t i = 0; i < r.sites.size(); i++) {
        line_acc &l = lines[{base_name(where[i].first), where[i].second}];
        const site_result &s = r.sites[i];
        if (s.kind == ev_block)
            l.block_issues += static_cast<double>(s.c.issues), l.block_sites++;
        else
            l.mem_issues += static_cast<double>(s.c.issues), l.mem_sites++;
        l.sites.push_back(i);
    }
    const double warps = static_cast<double>(r.fig.warps);
    double weighted = 0, plain = 0;
    unsigned long long dropped = 0;
    /* executions per line with sites, for the lines without (below) */
    std::map<line_key, double> executions;
    for (auto &e : lines) {
        auto found = rows.find(e.first);
        if (found == rows.end())
            continue;
        const line_acc &l = e.second;
        const double E = l.block_sites ? l.block_issues : l.mem_issues;
        const double B = l.block_sites ? l.block_sites : l.mem_sites;
        executions[e.first] = E / std::max(1.0, B / found->second.copies);
    }
    /* A SASS loop runs no more often than the least-run line of those with
     * sites and fewer than 2 copies (in the mean over template instances)
     * that have instructions in it: a line GCC runs in a loop of its own
     * inside it (a constant-trip loop nvcc unrolled completely) is held to
     * that. Lines of several copies say nothing of one copy's runs (the paths
     * of a switch run unequally). */
    std::map<std::string, double> loop_runs;
    for (const auto &x : executions) {
        const sass_row &row = rows.at(x.first);
        if (row.copies >= 2 || row.loops.empty())
            continue;
        for (const std::string &id : row.loops) { /* one per instance, when averaged over instances */
            auto f = loop_runs.find(id);
            if (f == loop_runs.end() || x.second / row.copies < f->second)
                loop_runs[id] = x.second / row.copies;
        }
    }
    auto weigh = [&](const sass_row &row, double n) {
        double in_loops = n;
        for (const std::string &id : row.loops) {
            auto f = loop_runs.find(id);
            if (f != loop_runs.end())
                in_loops = std::min(in_loops, f->second * row.copies);
        }
        return in_loops * row.loop / row.copies + std::min(n, warps * row.copies) * row.top / row.copies;
    };
    auto share_a_loop = [](const sass_row &a, const sass_row &b) {
        for (const std::string &x : a.loops)
            if (std::find(b.loops.begin(), b.loops.end(), x) != b.loops.end())
                return true;
        return false;
    };
    /* A line of the table that no site ran is part of a basic block that
     * begins on another line (GCC starts one block per branch target: a
     * loop's `for` line is tested at the end of the body's block): it runs
     * as often as the nearest line of its file that has sites and, when it
     * has instructions inside SASS loops, shares one of them (else it did
     * not run: another case of a switch, another template path). */
    double borrowed = 0, missed = 0;
    for (const auto &row : rows) {
        if (executions.count(row.first))
            continue;
        const line_key *best = nullptr;
        int best_distance = 0;
        for (const auto &x : executions) {
            if (x.first.first != row.first.first || (row.second.loop > 0 && !share_a_loop(row.second, rows.at(x.first))))
                continue;
            const int d = std::abs(x.first.second - row.first.second);
            if (!best || d < best_distance || (d == best_distance && x.second > executions[*best]))
                best = &x.first, best_distance = d;
        }
        if (!best) {
            missed += row.second.loop + row.second.top;
            continue;
        }
        const double w = weigh(row.second, executions[*best]);
        borrowed += w;
        if (trace_on())
            std::fprintf(stderr, "simtlab-emu model sass: %s %s:%d no site: executions of line %d, %.1f; SASS loop "
                         "%.2f top %.2f copies %.2f -> %.1f instructions\n", r.fig.kernel, row.first.first.c_str(),
                         row.first.second, best->second, executions[*best], row.second.loop, row.second.top,
                         row.second.copies, w);
    }
    weighted += borrowed;
    for (auto &e : lines) {
        const line_acc &l = e.second;
        auto found = rows.find(e.first);
        if (found == rows.end()) {
            plain += l.block_issues + l.mem_issues;
            if (trace_on())
                std::fprintf(stderr, "simtlab-emu model sass: %s %s:%d not in the table: %.0f basic blocks + %.0f "
                             "memory instructions\n", r.fig.kernel, e.first.first.c_str(), e.first.second,
                             l.block_issues, l.mem_issues);
            continue;
        }
        const sass_row &row = found->second;
        const double n = executions[e.first];
        const double w = weigh(row, n);
        weighted += w;
        unsigned long long line_dropped = 0;
        if (row.branches == 0)
            for (std::size_t i : l.sites)
                if (r.sites[i].kind == ev_block) {
                    line_dropped += r.sites[i].c.diverged;
                    r.sites[i].c.diverged = 0;
                }
        dropped += line_dropped;
        if (trace_on())
            std::fprintf(stderr, "simtlab-emu model sass: %s %s:%d sites %.0fx%d (memory %.0fx%d), executions %.1f, "
                         "SASS loop %.2f top %.2f copies %.2f -> %.1f instructions%s\n", r.fig.kernel,
                         e.first.first.c_str(), e.first.second, l.block_issues, l.block_sites, l.mem_issues,
                         l.mem_sites, n, row.loop, row.top, row.copies, w,
                         line_dropped ? " (predicated: diverged dropped)" : "");
    }
    if (trace_on())
        std::fprintf(stderr, "simtlab-emu model sass: %s: %.0f weighted (%.0f of them on lines without sites) + %.0f "
                     "unweighted; %.0f SASS instructions on lines matched to none\n", r.fig.kernel, weighted, borrowed,
                     plain, missed);
    r.fig.branches_diverged -= std::min<unsigned long long>(r.fig.branches_diverged, dropped);
    out->instructions = weighted + plain;
    out->diverged_dropped = dropped;
    return true;
}

} /* namespace profile */
} /* namespace simtlab_emu */
