#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "dla/regression/reports.h"

namespace dla::regression {

namespace {

constexpr const char* kStyle = R"css(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d232a;background:#f6f7f9}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d5d9de;padding-bottom:4px}
.meta{color:#5b6570;font-size:13px}.cards{display:flex;gap:12px;flex-wrap:wrap;margin:16px 0}
.card{background:#fff;border:1px solid #d5d9de;border-radius:6px;padding:10px 16px;min-width:110px}
.card .v{font-size:22px;font-weight:600}.card .k{font-size:12px;color:#5b6570}
.pass{color:#1a7f37}.fail{color:#cf222e}.warn{color:#9a6700}
table{border-collapse:collapse;background:#fff;font-size:13px;margin:6px 0}
th,td{border:1px solid #d5d9de;padding:3px 8px;text-align:left;vertical-align:top}th{background:#eef1f4}
code{font-size:12px;background:#eef1f4;padding:1px 4px;border-radius:3px;word-break:break-all}
.bar{display:inline-block;width:160px;height:10px;background:#e4e7eb;border-radius:5px;vertical-align:middle}
.bar span{display:block;height:10px;border-radius:5px;background:#2da44e}
td.hit{background:#dafbe1}td.hole{background:#ffebe9}td.ignore{background:#f0f0f0;color:#777}td.illegal{background:#cf222e;color:#fff}
details{margin:4px 0}summary{cursor:pointer}.plots{display:flex;gap:16px;flex-wrap:wrap}
)css";

std::string h(const std::string& s) { return xml_escape(s); }

std::string status_class(const std::string& s) { return s == "pass" ? "pass" : "fail"; }

std::string bar(double percent) {
  return fmt::format("<span class=\"bar\"><span style=\"width:{:.1f}%\"></span></span> {:.1f}%", percent, percent);
}

std::string bin_class(const cov::BinData& b) {
  if (b.kind == cov::BinKind::Ignore) return "ignore";
  if (b.kind == cov::BinKind::Illegal) return b.hits ? "illegal" : "ignore";
  return b.hits ? "hit" : "hole";
}

std::string summary_section(const ReportInput& in) {
  size_t pass = 0;
  std::map<std::string, size_t> by_status;
  double wall = 0, test_time = 0;
  for (const Outcome& o : in.outcomes) {
    pass += o.passed();
    ++by_status[o.status];
    wall += o.wall_seconds;
    test_time += o.test_seconds;
  }
  const size_t n = in.outcomes.size();
  const double rate = n ? 100.0 * static_cast<double>(pass) / static_cast<double>(n) : 0;
  std::string s = "<div class=\"cards\">";
  auto card = [&](const std::string& k, const std::string& v, const std::string& cls = "") {
    s += fmt::format("<div class=\"card\"><div class=\"v {}\">{}</div><div class=\"k\">{}</div></div>", cls, v, k);
  };
  card("tests", std::to_string(n));
  card("passed", std::to_string(pass), "pass");
  card("failed", std::to_string(by_status["fail"]), by_status["fail"] ? "fail" : "");
  card("errors / crashes / timeouts",
       fmt::format("{} / {} / {}", by_status["error"], by_status["crash"], by_status["timeout"]),
       by_status["error"] + by_status["crash"] + by_status["timeout"] ? "fail" : "");
  card("pass rate", fmt::format("{:.1f}%", rate), rate == 100 ? "pass" : "fail");
  card("functional coverage", in.coverage.empty() ? "n/a" : fmt::format("{:.1f}%", in.coverage.percent()));
  card("test process time", fmt::format("{:.1f} s", wall));
  card("runner overhead", wall > 0 ? fmt::format("{:.1f}%", 100.0 * (wall - test_time) / wall) : "n/a");
  s += "</div>";
  if (wall > 0) s += "<p class=\"meta\">" + h(runner_overhead(in.outcomes).text()) + " (docs/regression.md, Runner overhead)</p>";
  return s;
}

std::string failures_section(const ReportInput& in) {
  const auto buckets = failure_buckets(in.outcomes);
  std::string s = "<h2>Failures by signature</h2>";
  if (buckets.empty()) return s + "<p class=\"pass\">No failures.</p>";
  s += "<table><tr><th>signature</th><th>tests</th><th>first failure</th><th>reproduce</th></tr>";
  for (const Bucket& b : buckets) {
    const Outcome& first = *b.outcomes.front();
    std::string tests;
    for (size_t i = 0; i < b.outcomes.size() && i < 8; ++i)
      tests += (i ? ", " : "") + h(b.outcomes[i]->job_id);
    if (b.outcomes.size() > 8) tests += fmt::format(" and {} more", b.outcomes.size() - 8);
    s += fmt::format("<tr><td><code>{}</code><br><span class=\"meta\">{}: {}</span></td><td><b>{}</b>: {}</td>"
                     "<td>{}</td><td><code>dlaverif repro {}/{}</code><br><code>{}</code></td></tr>",
                     h(b.signature), h(first.status), h(first.signature), b.outcomes.size(), tests, h(first.summary), h(in.out_dir),
                     h(first.result_dir), h(first.repro));
  }
  return s + "</table>";
}

std::string coverage_section(const ReportInput& in) {
  std::string s = "<h2>Functional coverage</h2>";
  if (in.coverage.empty()) return s + "<p class=\"meta\">No covergroup was sampled in this run.</p>";
  // The merged figure, then one column per configuration (a covergroup the configuration does
  // not have: "-").
  s += "<table><tr><th>covergroup</th><th>coverage (merged)</th><th>bins hit</th><th>samples</th>";
  for (const auto& [config, d] : in.coverage_by_config) s += "<th>" + h(config) + "</th>";
  s += "<th>description</th></tr>";
  auto config_cell = [](const cov::GroupData* g) {
    if (!g) return std::string("<td class=\"meta\">-</td>");
    return fmt::format("<td>{}<br><span class=\"meta\">{} / {} bins, {} samples</span></td>", bar(g->percent()),
                       g->hit_bins(), g->normal_bins(), g->samples);
  };
  for (const auto& [name, g] : in.coverage.groups()) {
    s += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{} / {}</td><td>{}</td>", h(name), bar(g.percent()),
                     g.hit_bins(), g.normal_bins(), g.samples);
    for (const auto& [config, d] : in.coverage_by_config) s += config_cell(d.group(name));
    s += "<td>" + h(g.description) + "</td></tr>";
  }
  s += fmt::format("<tr><td><b>total</b></td><td>{}</td><td></td><td></td>", bar(in.coverage.percent()));
  for (const auto& [config, d] : in.coverage_by_config)
    s += d.empty() ? std::string("<td class=\"meta\">-</td>") : "<td>" + bar(d.percent()) + "</td>";
  s += "<td>mean of the covergroups</td></tr></table>";
  for (const auto& [name, g] : in.coverage.groups()) {
    s += fmt::format("<details open><summary><b>{}</b> {}</summary>", h(name), bar(g.percent()));
    for (const std::string& e : g.illegal_events) s += "<p class=\"fail\">illegal: " + h(e) + "</p>";
    for (const cov::ItemData& i : g.items) {
      s += fmt::format("<table><tr><th colspan=\"{}\">{}{} &nbsp; {}</th></tr><tr>", std::max<size_t>(i.bins.size(), 1),
                       h(i.name), i.cross.empty() ? "" : " (cross)", bar(i.percent()));
      for (const cov::BinData& b : i.bins)
        s += fmt::format("<td class=\"{}\" title=\"{}\">{}<br><b>{}</b></td>", bin_class(b), cov::bin_kind_name(b.kind),
                         h(b.name), b.hits);
      s += "</tr></table>";
    }
    s += "</details>";
  }
  const auto holes = in.coverage.holes();
  s += fmt::format("<details><summary>{} holes (normal bins never hit)</summary><ul>", holes.size());
  for (size_t i = 0; i < holes.size() && i < 200; ++i) s += "<li><code>" + h(holes[i].path()) + "</code></li>";
  return s + "</ul></details>";
}

std::string closure_section(const ReportInput& in) {
  const ClosureReport& c = in.closure;
  std::string s = "<h2>Coverage closure and ranking</h2>";
  if (c.done) {
    s += fmt::format("<div class=\"cards\"><div class=\"card\"><div class=\"v\">{:.1f}%</div><div class=\"k\">before "
                     "closure ({} holes)</div></div><div class=\"card\"><div class=\"v pass\">{:.1f}%</div><div "
                     "class=\"k\">after closure ({} holes)</div></div><div class=\"card\"><div class=\"v\">{} / {}</div>"
                     "<div class=\"k\">kept / screened golden-only</div></div></div>",
                     c.before, c.holes_before, c.after, c.holes_after, c.kept.size(), c.screened);
    std::string kept;
    for (size_t i = 0; i < c.kept.size(); ++i) kept += (i ? ", " : "") + h(c.kept[i]);
    s += "<p>Closure tests: " + (kept.empty() ? std::string("none hit a hole") : kept) + ". Rerun them: <code>dlaverif regress --plan " +
         h(in.out_dir + "/" + c.plan) + "</code></p>";
  } else {
    s += "<p class=\"meta\">No closure in this run (<code>dlaverif regress --close-coverage</code>).</p>";
  }
  if (!in.ranked_plan.empty())
    s += fmt::format("<p>Ranking: {} of {} tests keep every bin this run hit: <code>dlaverif regress --plan {}/{}</code></p>",
                     in.ranked_tests, in.outcomes.size(), h(in.out_dir), h(in.ranked_plan));
  return s;
}

std::string code_coverage_section(const ReportInput& in) {
  const CodeCoverageReport& c = in.code;
  if (!c.done) return "";
  std::string s = fmt::format("<h2>Code coverage (Verilator line and toggle)</h2><p class=\"meta\">{} tests merged. "
                              "Line {:.1f}% ({} / {} lines), toggle {:.1f}% ({} / {} bits).{}</p>",
                              c.tests_merged, c.total.line_percent(), c.total.lines_hit, c.total.lines,
                              c.total.toggle_percent(), c.total.toggles_hit, c.total.toggles,
                              c.html.empty() ? std::string(" genhtml did not run.")
                                             : " Line by line: <a href=\"" + h(c.html) + "\">genhtml report</a>.");
  auto table = [&](const std::vector<FileCodeCoverage>& rows, const char* what) {
    std::string t = fmt::format("<table><tr><th>{}</th><th>line</th><th>lines</th><th>toggle</th><th>bits</th></tr>", what);
    for (const FileCodeCoverage& r : rows)
      t += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{} / {}</td><td>{}</td><td>{} / {}</td></tr>", h(r.file),
                       bar(r.line_percent()), r.lines_hit, r.lines, bar(r.toggle_percent()), r.toggles_hit, r.toggles);
    return t + "</table>";
  };
  s += table(c.units, "unit");
  s += fmt::format("<details><summary>{} files</summary>{}</details>", c.files.size(), table(c.files, "file"));
  if (c.closure.empty()) return s;
  s += fmt::format("<h3>Closure per configuration and unit</h3><p class=\"meta\">Goals: line {:.0f}%, toggle {:.0f}% "
                   "({}), over the lines and bits not waived and not constant by elaboration (Yosys: a bit the optimised "
                   "netlist drives with 0 or 1 cannot toggle; Verilator may still count it, through a counter it "
                   "shares with another signal). Waivers: {}.{}</p>",
                   c.goals.line_percent, c.goals.toggle_percent,
                   c.goals_enforced ? "enforced: a unit below them fails the run" : "shown, not enforced",
                   c.waivers.empty() ? std::string("none") : "<code>" + h(c.waivers) + "</code>",
                   c.unused_waivers.empty() ? std::string()
                                            : fmt::format(" {} waiver entr{} excused nothing (stale?).",
                                                          c.unused_waivers.size(), c.unused_waivers.size() == 1 ? "y" : "ies"));
  s += "<table><tr><th>config</th><th>unit</th><th>line</th><th>lines hit / waived / all</th><th>toggle</th>"
       "<th>bits hit / waived / constant (counted) / all</th><th>goals</th><th>uncovered, not waived</th></tr>";
  for (const ConfigCodeClosure& cfg : c.closure)
    for (const UnitCodeClosure& u : cfg.units) {
      std::string list;
      for (const auto& [file, ranges] : u.uncovered_lines)
        list += "<li><code>" + h(file) + "</code>: lines " + h(format_line_ranges(ranges)) + "</li>";
      size_t bits = 0;
      std::string toggles;
      for (const auto& [signal, n] : u.uncovered_toggles) {
        bits += n;
        toggles += fmt::format("<li><code>{}</code>: {} bit{}</li>", h(signal), n, n == 1 ? "" : "s");
      }
      std::string cell = list.empty() && toggles.empty() ? std::string("none") : "";
      if (!list.empty())
        cell += fmt::format("<details><summary>{} lines</summary><ul>{}</ul></details>", u.uncovered_line_count(), list);
      if (!toggles.empty())
        cell += fmt::format("<details><summary>{} toggle bits</summary><ul>{}</ul></details>", bits, toggles);
      const bool met = u.meets(c.goals);
      s += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{} / {} / {}</td><td>{}</td><td>{} / {} / {} ({}) / {}</td>"
                       "<td class=\"{}\">{}</td><td>{}</td></tr>",
                       h(u.config), h(u.unit), bar(u.line_percent()), u.lines_hit, u.lines_waived, u.lines,
                       bar(u.toggle_percent()), u.toggles_hit, u.toggles_waived, u.toggles_constant,
                       u.toggles_constant_counted, u.toggles, met ? "pass" : "fail",
                       met ? "met" : "missed", cell);
    }
  return s + "</table>";
}

std::string trends_section(const ReportInput& in) {
  std::vector<std::string> labels;
  std::vector<double> rate, coverage;
  for (const RunInfo& r : in.history) {
    labels.push_back("#" + std::to_string(r.id));
    rate.push_back(r.total ? 100.0 * static_cast<double>(r.passed) / static_cast<double>(r.total) : 0);
    coverage.push_back(r.coverage < 0 ? 0 : r.coverage);
  }
  return "<h2>Trends over past runs</h2><div class=\"plots\">" + svg_percent_plot("pass rate (%)", labels, rate) +
         svg_percent_plot("functional coverage (%)", labels, coverage) + "</div>";
}

std::string tests_section(const ReportInput& in) {
  std::string s = fmt::format("<h2>Tests</h2><details><summary>all {} tests</summary><table><tr><th>test</th><th>status"
                              "</th><th>cycles</th><th>wall s</th><th>coverage</th><th>signature</th></tr>",
                              in.outcomes.size());
  for (const Outcome& o : in.outcomes)
    s += fmt::format("<tr><td>{}</td><td class=\"{}\">{}</td><td>{}</td><td>{:.2f}</td><td>{:.1f}%</td><td><code>{}</code></td></tr>",
                     h(o.job_id), status_class(o.status), h(o.status), o.cycles, o.wall_seconds, o.coverage_percent,
                     h(o.signature));
  return s + "</table></details>";
}

}  // namespace

std::string svg_percent_plot(const std::string& title, const std::vector<std::string>& labels,
                             const std::vector<double>& values) {
  constexpr double W = 460, H = 220, L = 40, R = 12, T = 26, B = 34;
  const double pw = W - L - R, ph = H - T - B;
  std::string s = fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
                              "style=\"background:#fff;border:1px solid #d5d9de;border-radius:6px\">"
                              "<text x=\"{}\" y=\"17\" font-size=\"13\" font-weight=\"600\">{}</text>",
                              W, H, L, xml_escape(title));
  for (int p = 0; p <= 100; p += 25) {
    const double y = T + ph * (1 - p / 100.0);
    s += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#e4e7eb\"/>"
                     "<text x=\"{}\" y=\"{:.1f}\" font-size=\"10\" text-anchor=\"end\" fill=\"#5b6570\">{}</text>",
                     L, y, W - R, y, L - 4, y + 3, p);
  }
  const size_t n = values.size();
  auto x_of = [&](size_t i) { return n <= 1 ? L + pw / 2 : L + pw * static_cast<double>(i) / static_cast<double>(n - 1); };
  auto y_of = [&](double v) { return T + ph * (1 - std::clamp(v, 0.0, 100.0) / 100.0); };
  std::string pts;
  for (size_t i = 0; i < n; ++i) pts += fmt::format("{:.1f},{:.1f} ", x_of(i), y_of(values[i]));
  if (n > 1) s += "<polyline fill=\"none\" stroke=\"#0969da\" stroke-width=\"2\" points=\"" + pts + "\"/>";
  const size_t step = n > 12 ? (n + 11) / 12 : 1;
  for (size_t i = 0; i < n; ++i) {
    s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"#0969da\"><title>{}: {:.1f}%</title></circle>",
                     x_of(i), y_of(values[i]), xml_escape(labels[i]), values[i]);
    if (i % step == 0 || i + 1 == n)
      s += fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"#5b6570\">{}</text>",
                       x_of(i), H - B + 14, xml_escape(labels[i]));
  }
  if (n == 0) s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#5b6570\">no finished runs yet</text>", L + 10, T + 20);
  s += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"#5b6570\">run</text></svg>",
                   L + pw / 2, H - 4);
  return s;
}

// `dlaverif mutate --out DIR` writes mutation.html; link it when it shares this run's out dir.
std::string mutation_section(const ReportInput& in) {
  std::error_code ec;
  if (in.out_dir.empty()) return "";
  const std::string page = in.out_dir + "/mutation.html";
  if (!std::filesystem::exists(std::filesystem::path(page), ec)) return "";
  return "<h2>Mutation grading</h2><p class=\"meta\">Kill rates and classified survivors of the latest "
         "<code>dlaverif mutate</code> run into this directory: <a href=\"mutation.html\">mutation report</a>.</p>";
}

std::string html_report(const ReportInput& in) {
  std::string s = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>dlaverif regression " +
                  h(in.run.plan) + " " + h(in.run.level) + "</title><style>" + kStyle + "</style></head><body>";
  s += fmt::format("<h1>dlaverif regression: {} / {}</h1><div class=\"meta\">run #{} &middot; {} &rarr; {} &middot; "
                   "git {} &middot; launcher {}<br><code>{}</code></div>",
                   h(in.run.plan), h(in.run.level), in.run.id, h(in.run.started), h(in.run.finished),
                   h(in.run.git_revision), h(in.run.launcher), h(in.run.command_line));
  s += summary_section(in) + failures_section(in) + coverage_section(in) + code_coverage_section(in) +
       closure_section(in) + mutation_section(in) + trends_section(in) + tests_section(in);
  return s + "</body></html>\n";
}

}  // namespace dla::regression
