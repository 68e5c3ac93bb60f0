// Summaries, mutation.json and the static mutation.html page (no scripts, like report.html).
#include "dla/mutation/mutation_report.h"

#include <algorithm>
#include <map>

#include <fmt/core.h>

namespace dla::mutation {

namespace {

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

// Buckets of "tests run until the kill".
const std::vector<std::pair<std::string, std::pair<unsigned, unsigned>>>& test_buckets() {
  static const std::vector<std::pair<std::string, std::pair<unsigned, unsigned>>> b = {
      {"1", {1, 1}}, {"2", {2, 2}}, {"3-5", {3, 5}}, {"6-10", {6, 10}}, {"11-50", {11, 50}}, {">50", {51, ~0u}}};
  return b;
}
const std::vector<std::pair<std::string, std::pair<double, double>>>& second_buckets() {
  static const std::vector<std::pair<std::string, std::pair<double, double>>> b = {
      {"<1 s", {0, 1}}, {"1-2 s", {1, 2}}, {"2-5 s", {2, 5}}, {"5-15 s", {5, 15}}, {"15-60 s", {15, 60}},
      {">60 s", {60, 1e300}}};
  return b;
}

nlohmann::json distribution(const UnitSummary& s) {
  nlohmann::json tests = nlohmann::json::object(), secs = nlohmann::json::object();
  for (const auto& [name, r] : test_buckets())
    tests[name] = std::count_if(s.kill_tests.begin(), s.kill_tests.end(),
                                [&](unsigned t) { return t >= r.first && t <= r.second; });
  for (const auto& [name, r] : second_buckets())
    secs[name] = std::count_if(s.kill_seconds.begin(), s.kill_seconds.end(),
                               [&](double t) { return t >= r.first && t < r.second; });
  return {{"tests_until_kill", tests},
          {"seconds_until_kill", secs},
          {"seconds_p50", percentile(s.kill_seconds, 0.5)},
          {"seconds_p90", percentile(s.kill_seconds, 0.9)},
          {"seconds_max", percentile(s.kill_seconds, 1.0)}};
}

struct Totals {
  unsigned graded = 0, killed = 0, waived = 0, survived = 0, timed_out = 0, equivalent = 0, distinguishable = 0,
           waived_or_equivalent = 0;
  double rate() const { return graded > waived ? double(killed) / double(graded - waived) : 0; }
  double rate_non_equivalent() const {
    return graded > waived_or_equivalent ? double(killed) / double(graded - waived_or_equivalent) : 0;
  }
};
Totals totals(const std::vector<UnitSummary>& units) {
  Totals t;
  for (const auto& u : units) {
    t.graded += u.graded;
    t.killed += u.killed;
    t.waived += u.waived;
    t.survived += u.survived;
    t.timed_out += u.timed_out;
    t.equivalent += u.equivalent;
    t.distinguishable += u.distinguishable;
    t.waived_or_equivalent += u.waived_or_equivalent;
  }
  return t;
}

std::string bar(double fraction, const char* colour) {
  const int w = static_cast<int>(fraction * 200 + 0.5);
  return fmt::format("<svg width=\"202\" height=\"12\"><rect x=\"0\" y=\"1\" width=\"{}\" height=\"10\" fill=\"{}\"/>"
                     "<rect x=\"0\" y=\"1\" width=\"200\" height=\"10\" fill=\"none\" stroke=\"#999\"/></svg>",
                     w, colour);
}

}  // namespace

UnitSummary summarize(const RunInfo& run, const std::vector<MutantResult>& results) {
  UnitSummary s;
  s.run = run;
  s.results = results;
  for (const auto& r : results) {
    ++s.graded;
    switch (r.status) {
      case Status::Killed:
        ++s.killed;
        s.kill_seconds.push_back(r.seconds);
        s.kill_tests.push_back(r.tests_run);
        break;
      case Status::TimedOut: ++s.timed_out; break;
      case Status::Survived:
        ++s.survived;
        if (r.triage) {
          ++s.triaged;
          if (r.triage->equivalent()) ++s.equivalent;
          else if (r.triage->distinguishable()) ++s.distinguishable;
          else ++s.triage_unknown;
        }
        if (r.survivor_class == SurvivorClass::Waived || (r.triage && r.triage->equivalent())) ++s.waived_or_equivalent;
        if (!r.explanation.empty()) ++s.explained;
        if (r.unexplained()) ++s.unexplained;
        if (r.survivor_class == SurvivorClass::Waived) ++s.waived;
        if (r.survivor_class == SurvivorClass::NotActivated) ++s.not_activated;
        if (r.survivor_class == SurvivorClass::NotPropagated) ++s.not_propagated;
        if (r.survivor_class == SurvivorClass::NotDetected) ++s.not_detected;
        break;
    }
  }
  s.kill_rate = s.graded > s.waived ? double(s.killed) / double(s.graded - s.waived) : 0;
  s.kill_rate_all = s.graded ? double(s.killed) / double(s.graded) : 0;
  s.kill_rate_non_equivalent = s.graded > s.waived_or_equivalent ? double(s.killed) / double(s.graded - s.waived_or_equivalent) : 0;
  s.mutants_per_hour = run.seconds > 0 ? s.graded * 3600.0 / run.seconds : 0;
  return s;
}

nlohmann::json report_json(const std::vector<UnitSummary>& units) {
  nlohmann::json j;
  const Totals t = totals(units);
  j["overall"] = {{"graded", t.graded}, {"killed", t.killed}, {"survived", t.survived},
                  {"timed_out", t.timed_out}, {"waived", t.waived}, {"kill_rate", t.rate()},
                  {"equivalent", t.equivalent}, {"distinguishable", t.distinguishable},
                  {"kill_rate_non_equivalent", t.rate_non_equivalent()}};
  j["units"] = nlohmann::json::array();
  for (const auto& u : units) {
    nlohmann::json ju = {{"unit", u.run.unit}, {"config", u.run.config}, {"run_id", u.run.id},
                         {"plan", u.run.plan}, {"level", u.run.level}, {"started", u.run.started},
                         {"finished", u.run.finished}, {"git_revision", u.run.git_revision},
                         {"command_line", u.run.command_line}, {"mutants_in_model", u.run.mutants_in_model},
                         {"graded", u.graded}, {"killed", u.killed}, {"survived", u.survived},
                         {"timed_out", u.timed_out}, {"waived", u.waived}, {"kill_rate", u.kill_rate},
                         {"survivors_by_class", {{"not-activated", u.not_activated},
                                                 {"not-propagated", u.not_propagated},
                                                 {"not-detected", u.not_detected},
                                                 {"waived", u.waived}}},
                         {"kill_rate_all", u.kill_rate_all},
                         {"kill_rate_non_equivalent", u.kill_rate_non_equivalent},
                         {"explained", u.explained}, {"unexplained", u.unexplained},
                         {"triage", {{"triaged", u.triaged}, {"equivalent", u.equivalent},
                                     {"distinguishable", u.distinguishable}, {"unknown", u.triage_unknown}}},
                         {"seconds", u.run.seconds}, {"mutants_per_hour", u.mutants_per_hour},
                         {"time_to_first_kill", distribution(u)}};
    ju["mutants"] = nlohmann::json::array();
    for (const auto& r : u.results) ju["mutants"].push_back(r.to_json());
    j["units"].push_back(std::move(ju));
  }
  return j;
}

std::string report_html(const std::vector<UnitSummary>& units) {
  const Totals t = totals(units);
  std::string h =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>dlaverif mutation grading</title><style>"
      "body{font-family:sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}"
      "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:13px}th{background:#eee}"
      ".card{display:inline-block;border:1px solid #ccc;border-radius:6px;padding:8px 14px;margin:0 8px 8px 0}"
      ".card b{display:block;font-size:22px}.not-activated{color:#777}.not-propagated{color:#a60}"
      ".not-detected{color:#c00;font-weight:bold}.waived{color:#07a}code{font-size:12px}</style></head><body>\n"
      "<h1>Mutation grading</h1>\n<p>Mutants of the RTL (Yosys <code>mutate</code>) run against the plan's tests; "
      "a mutant is killed when a test fails. Kill rate = killed / (graded &minus; waived). With formal triage "
      "(<code>dlaverif mutate --triage</code>) every survivor is also checked for a difference at the unit's ports "
      "from reset: <i>equivalent</i> (none for all cycles, proved by induction, or none within K cycles), "
      "<i>distinguishable</i> (a witness: a testbench hole, listed first) or <i>unknown</i>; non-equivalent "
      "kill rate = killed / (graded &minus; waived or proved equivalent).</p>\n";
  h += fmt::format("<div class=\"card\">mutants graded<b>{}</b></div><div class=\"card\">killed<b>{}</b></div>"
                   "<div class=\"card\">survived<b>{}</b></div><div class=\"card\">timed out<b>{}</b></div>"
                   "<div class=\"card\">waived<b>{}</b></div><div class=\"card\">overall kill rate<b>{:.1f} %</b></div>"
                   "<div class=\"card\">proved equivalent<b>{}</b></div><div class=\"card\">distinguishable<b>{}</b>"
                   "</div><div class=\"card\">kill rate, non-equivalent<b>{:.1f} %</b></div>\n",
                   t.graded, t.killed, t.survived, t.timed_out, t.waived, 100 * t.rate(), t.equivalent,
                   t.distinguishable, 100 * t.rate_non_equivalent());
  h += "<h2>Per unit</h2>\n<table><tr><th>unit</th><th>config</th><th>graded</th><th>killed</th><th>kill rate</th>"
       "<th></th><th>not activated</th><th>not propagated</th><th>not detected</th><th>waived</th><th>timed out</th>"
       "<th>triaged</th><th>equivalent</th><th>distinguishable</th><th>kill rate, non-equivalent</th>"
       "<th>explained</th><th>unexplained</th>"
       "<th>time to kill p50 / p90 / max</th><th>mutants/hour</th><th>run</th></tr>\n";
  for (const auto& u : units)
    h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1f} %</td><td>{}</td><td>{}</td>"
                     "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1f} %</td>"
                     "<td>{}</td><td class=\"{}\">{}</td><td>{:.1f} / {:.1f} / {:.1f} s</td><td>{:.0f}</td><td>#{} {} ({})</td></tr>\n",
                     esc(u.run.unit), esc(u.run.config), u.graded, u.killed, 100 * u.kill_rate,
                     bar(u.kill_rate, "#3a3"), u.not_activated, u.not_propagated, u.not_detected, u.waived,
                     u.timed_out, u.triaged, u.equivalent, u.distinguishable, 100 * u.kill_rate_non_equivalent,
                     u.explained, u.unexplained ? "not-detected" : "", u.unexplained,
                     percentile(u.kill_seconds, 0.5), percentile(u.kill_seconds, 0.9),
                     percentile(u.kill_seconds, 1.0), u.mutants_per_hour, u.run.id, esc(u.run.started),
                     esc(u.run.plan + " " + u.run.level));
  h += "</table>\n<h2>Time to first kill</h2>\n<table><tr><th>unit</th>";
  for (const auto& b : test_buckets()) h += "<th>" + esc(b.first) + (b.first == "1" ? " test" : " tests") + "</th>";
  for (const auto& b : second_buckets()) h += "<th>" + esc(b.first) + "</th>";
  h += "</tr>\n";
  for (const auto& u : units) {
    const nlohmann::json d = distribution(u);
    h += "<tr><td>" + esc(u.run.unit + "/" + u.run.config) + "</td>";
    for (const auto& b : test_buckets()) h += fmt::format("<td>{}</td>", d["tests_until_kill"][b.first].get<long>());
    for (const auto& b : second_buckets()) h += fmt::format("<td>{}</td>", d["seconds_until_kill"][b.first].get<long>());
    h += "</tr>\n";
  }
  h += "</table>\n";
  for (const auto& u : units) {
    h += fmt::format("<h2>Survivors and timeouts: {} / {}</h2>\n", esc(u.run.unit), esc(u.run.config));
    h += "<table><tr><th>mutant</th><th>status</th><th>class</th><th>formal triage</th><th>mutation</th>"
         "<th>source</th><th>tests</th><th>note</th></tr>\n";
    // Distinguishable survivors first: each is a difference at the ports no test caught.
    std::vector<const MutantResult*> rows;
    for (const auto& r : u.results)
      if (r.status != Status::Killed) rows.push_back(&r);
    std::stable_sort(rows.begin(), rows.end(), [](const MutantResult* a, const MutantResult* b) {
      return (a->triage && a->triage->distinguishable()) > (b->triage && b->triage->distinguishable());
    });
    for (const MutantResult* r : rows) {
      const std::string cls = class_name(r->survivor_class);
      std::string triage = "&ndash;";
      if (r->triage && r->triage->distinguishable()) {
        std::string ports;
        for (const auto& p : r->triage->ports) ports += (ports.empty() ? "" : ", ") + p;
        triage = fmt::format("<span class=\"not-detected\">distinguishable</span> after {} cycles at <code>{}</code> "
                             "(<a href=\"{}\">witness VCD</a>)",
                             r->triage->witness_cycles, esc(ports.empty() ? "?" : ports), esc(r->triage->witness));
      } else if (r->triage && r->triage->equivalent()) {
        triage = "equivalent (" + esc(r->triage->proof.empty() ? fmt::format("within {} cycles", r->triage->depth)
                                                                  : r->triage->proof) + ")";
      } else if (r->triage) {
        triage = "unknown: " + esc(r->triage->reason);
      }
      const std::string note = r->explanation.empty() ? r->note : "explained: " + r->explanation;
      h += fmt::format("<tr><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td><td><code>{} {}[{}]</code></td>"
                       "<td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n",
                       r->mutant.id, status_name(r->status), cls, cls, triage, esc(r->mutant.mode),
                       esc(r->mutant.wire), r->mutant.bit, esc(r->mutant.location), r->tests_run, esc(note));
    }
    if (rows.empty()) h += "<tr><td colspan=\"8\">none: every mutant was killed</td></tr>\n";
    h += "</table>\n";
    h += "<p>Repro of a mutant: <code>" + esc("dlaverif-mut-" + u.run.config + "-" + u.run.unit +
                                              " run --config " + u.run.config +
                                              " --test ... --seed ... --set-signal mutsel=ID") +
         "</code></p>\n";
  }
  h += "</body></html>\n";
  return h;
}

}  // namespace dla::mutation
