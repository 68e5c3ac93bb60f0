// SQLite tables of mutation grading (schema in docs/mutation.md).
#include <sqlite3.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "dla/mutation/mutation_report.h"

namespace dla::mutation {

namespace {

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
using Db = std::unique_ptr<sqlite3, DbCloser>;
struct StmtFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};
using Stmt = std::unique_ptr<sqlite3_stmt, StmtFinalizer>;

Db open_db(const std::string& path) {
  sqlite3* raw = nullptr;
  if (sqlite3_open(path.c_str(), &raw) != SQLITE_OK) {
    const std::string msg = raw ? sqlite3_errmsg(raw) : "out of memory";
    sqlite3_close(raw);
    throw std::runtime_error("results store " + path + ": " + msg);
  }
  Db db(raw);
  sqlite3_busy_timeout(raw, 10000);
  return db;
}

void exec(sqlite3* db, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string msg = err ? err : "error";
    sqlite3_free(err);
    throw std::runtime_error(std::string("results store: ") + msg);
  }
}

Stmt prepare(sqlite3* db, const char* sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK)
    throw std::runtime_error(std::string("results store: ") + sqlite3_errmsg(db));
  return Stmt(s);
}

void bind_text(sqlite3_stmt* s, int i, const std::string& v) { sqlite3_bind_text(s, i, v.c_str(), -1, SQLITE_TRANSIENT); }
std::string text(sqlite3_stmt* s, int i) {
  const auto* p = sqlite3_column_text(s, i);
  return p ? reinterpret_cast<const char*>(p) : "";
}

void create_tables(sqlite3* db) {
  exec(db,
       "CREATE TABLE IF NOT EXISTS mutation_runs(id INTEGER PRIMARY KEY, started TEXT, finished TEXT, unit TEXT, "
       "config TEXT, plan TEXT, level TEXT, git_revision TEXT, command_line TEXT, out_dir TEXT, "
       "mutants_in_model INTEGER, graded INTEGER, killed INTEGER, survived INTEGER, timed_out INTEGER, "
       "waived INTEGER, kill_rate REAL, seconds REAL);"
       "CREATE TABLE IF NOT EXISTS mutation_results(run_id INTEGER, mutant INTEGER, mode TEXT, target TEXT, "
       "bit INTEGER, location TEXT, status TEXT, class TEXT, killer_test TEXT, killer_seed INTEGER, "
       "killer_signature TEXT, tests_run INTEGER, seconds REAL, note TEXT, PRIMARY KEY (run_id, mutant));"
       // formal triage of survivors (dlaverif mutate --triage); ports comma separated, witness
       // relative to the run's out dir
       "CREATE TABLE IF NOT EXISTS mutation_triage(run_id INTEGER, mutant INTEGER, verdict TEXT, depth INTEGER, "
       "witness_cycles INTEGER, ports TEXT, witness TEXT, reason TEXT, seconds REAL, proof TEXT, "
       "PRIMARY KEY (run_id, mutant));"
       // survivors a waiver file explains (kind: explained) without calling them equivalent
       "CREATE TABLE IF NOT EXISTS mutation_explanations(run_id INTEGER, mutant INTEGER, reason TEXT, "
       "PRIMARY KEY (run_id, mutant));");
  // stores written before equivalence proofs had a kind lack the proof column
  bool has_proof = false;
  Stmt cols = prepare(db, "PRAGMA table_info(mutation_triage)");
  while (sqlite3_step(cols.get()) == SQLITE_ROW)
    if (text(cols.get(), 1) == "proof") has_proof = true;
  if (!has_proof) exec(db, "ALTER TABLE mutation_triage ADD COLUMN proof TEXT");
}

}  // namespace

int64_t record(const std::string& db_path, RunInfo run, const std::vector<MutantResult>& results) {
  Db db = open_db(db_path);
  create_tables(db.get());
  const UnitSummary s = summarize(run, results);
  exec(db.get(), "BEGIN IMMEDIATE");
  {
    Stmt st = prepare(db.get(),
                      "INSERT INTO mutation_runs(started, finished, unit, config, plan, level, git_revision, "
                      "command_line, out_dir, mutants_in_model, graded, killed, survived, timed_out, waived, "
                      "kill_rate, seconds) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    const std::string fields[] = {run.started, run.finished, run.unit, run.config, run.plan, run.level,
                                  run.git_revision, run.command_line, run.out_dir};
    for (int i = 0; i < 9; ++i) bind_text(st.get(), i + 1, fields[i]);
    sqlite3_bind_int64(st.get(), 10, run.mutants_in_model);
    sqlite3_bind_int64(st.get(), 11, s.graded);
    sqlite3_bind_int64(st.get(), 12, s.killed);
    sqlite3_bind_int64(st.get(), 13, s.survived);
    sqlite3_bind_int64(st.get(), 14, s.timed_out);
    sqlite3_bind_int64(st.get(), 15, s.waived);
    sqlite3_bind_double(st.get(), 16, s.kill_rate);
    sqlite3_bind_double(st.get(), 17, run.seconds);
    if (sqlite3_step(st.get()) != SQLITE_DONE) throw std::runtime_error(std::string("results store: ") + sqlite3_errmsg(db.get()));
  }
  const int64_t id = sqlite3_last_insert_rowid(db.get());
  Stmt st = prepare(db.get(),
                    "INSERT INTO mutation_results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  for (const MutantResult& r : results) {
    sqlite3_reset(st.get());
    sqlite3_bind_int64(st.get(), 1, id);
    sqlite3_bind_int64(st.get(), 2, r.mutant.id);
    bind_text(st.get(), 3, r.mutant.mode);
    bind_text(st.get(), 4, r.mutant.wire.empty() ? r.mutant.cell + "." + r.mutant.port : r.mutant.wire);
    sqlite3_bind_int64(st.get(), 5, r.mutant.bit);
    bind_text(st.get(), 6, r.mutant.location);
    bind_text(st.get(), 7, status_name(r.status));
    bind_text(st.get(), 8, class_name(r.survivor_class));
    bind_text(st.get(), 9, r.killer_test);
    sqlite3_bind_int64(st.get(), 10, static_cast<int64_t>(r.killer_seed));
    bind_text(st.get(), 11, r.killer_signature);
    sqlite3_bind_int64(st.get(), 12, r.tests_run);
    sqlite3_bind_double(st.get(), 13, r.seconds);
    bind_text(st.get(), 14, r.note);
    if (sqlite3_step(st.get()) != SQLITE_DONE) throw std::runtime_error(std::string("results store: ") + sqlite3_errmsg(db.get()));
  }
  Stmt tr = prepare(db.get(), "INSERT INTO mutation_triage(run_id, mutant, verdict, depth, witness_cycles, ports, witness, "
                              "reason, seconds, proof) VALUES (?,?,?,?,?,?,?,?,?,?)");
  for (const MutantResult& r : results) {
    if (!r.triage) continue;
    std::string ports;
    for (const auto& p : r.triage->ports) ports += (ports.empty() ? "" : ",") + p;
    sqlite3_reset(tr.get());
    sqlite3_bind_int64(tr.get(), 1, id);
    sqlite3_bind_int64(tr.get(), 2, r.mutant.id);
    bind_text(tr.get(), 3, r.triage->verdict);
    sqlite3_bind_int64(tr.get(), 4, r.triage->depth);
    sqlite3_bind_int64(tr.get(), 5, r.triage->witness_cycles);
    bind_text(tr.get(), 6, ports);
    bind_text(tr.get(), 7, r.triage->witness);
    bind_text(tr.get(), 8, r.triage->reason);
    sqlite3_bind_double(tr.get(), 9, r.triage->seconds);
    bind_text(tr.get(), 10, r.triage->proof);
    if (sqlite3_step(tr.get()) != SQLITE_DONE) throw std::runtime_error(std::string("results store: ") + sqlite3_errmsg(db.get()));
  }
  Stmt ex = prepare(db.get(), "INSERT INTO mutation_explanations VALUES (?,?,?)");
  for (const MutantResult& r : results) {
    if (r.explanation.empty()) continue;
    sqlite3_reset(ex.get());
    sqlite3_bind_int64(ex.get(), 1, id);
    sqlite3_bind_int64(ex.get(), 2, r.mutant.id);
    bind_text(ex.get(), 3, r.explanation);
    if (sqlite3_step(ex.get()) != SQLITE_DONE) throw std::runtime_error(std::string("results store: ") + sqlite3_errmsg(db.get()));
  }
  exec(db.get(), "COMMIT");
  return id;
}

std::vector<UnitSummary> latest_per_unit(const std::string& db_path) {
  Db db = open_db(db_path);
  create_tables(db.get());
  std::vector<UnitSummary> out;
  Stmt runs = prepare(db.get(),
                      "SELECT id, unit, config, plan, level, started, finished, git_revision, command_line, out_dir, "
                      "mutants_in_model, seconds FROM mutation_runs WHERE id IN (SELECT max(id) FROM mutation_runs "
                      "GROUP BY unit, config) ORDER BY unit, config");
  while (sqlite3_step(runs.get()) == SQLITE_ROW) {
    RunInfo run;
    run.id = sqlite3_column_int64(runs.get(), 0);
    run.unit = text(runs.get(), 1);
    run.config = text(runs.get(), 2);
    run.plan = text(runs.get(), 3);
    run.level = text(runs.get(), 4);
    run.started = text(runs.get(), 5);
    run.finished = text(runs.get(), 6);
    run.git_revision = text(runs.get(), 7);
    run.command_line = text(runs.get(), 8);
    run.out_dir = text(runs.get(), 9);
    run.mutants_in_model = static_cast<unsigned>(sqlite3_column_int64(runs.get(), 10));
    run.seconds = sqlite3_column_double(runs.get(), 11);
    std::vector<MutantResult> results;
    Stmt rs = prepare(db.get(),
                      "SELECT mutant, mode, target, bit, location, status, class, killer_test, killer_seed, "
                      "killer_signature, tests_run, seconds, note FROM mutation_results WHERE run_id = ? ORDER BY mutant");
    sqlite3_bind_int64(rs.get(), 1, run.id);
    while (sqlite3_step(rs.get()) == SQLITE_ROW) {
      MutantResult r;
      r.mutant.id = static_cast<uint32_t>(sqlite3_column_int64(rs.get(), 0));
      r.mutant.mode = text(rs.get(), 1);
      r.mutant.wire = text(rs.get(), 2);
      r.mutant.bit = sqlite3_column_int(rs.get(), 3);
      r.mutant.location = text(rs.get(), 4);
      const std::string st = text(rs.get(), 5);
      r.status = st == "killed" ? Status::Killed : st == "timeout" ? Status::TimedOut : Status::Survived;
      const std::string c = text(rs.get(), 6);
      for (auto k : {SurvivorClass::NotActivated, SurvivorClass::NotPropagated, SurvivorClass::NotDetected,
                     SurvivorClass::Waived})
        if (c == class_name(k)) r.survivor_class = k;
      r.killer_test = text(rs.get(), 7);
      r.killer_seed = static_cast<uint64_t>(sqlite3_column_int64(rs.get(), 8));
      r.killer_signature = text(rs.get(), 9);
      r.tests_run = static_cast<unsigned>(sqlite3_column_int64(rs.get(), 10));
      r.seconds = sqlite3_column_double(rs.get(), 11);
      r.note = text(rs.get(), 12);
      results.push_back(std::move(r));
    }
    Stmt ts = prepare(db.get(),
                      "SELECT mutant, verdict, depth, witness_cycles, ports, witness, reason, seconds, proof FROM mutation_triage "
                      "WHERE run_id = ?");
    sqlite3_bind_int64(ts.get(), 1, run.id);
    while (sqlite3_step(ts.get()) == SQLITE_ROW) {
      const auto mutant = static_cast<uint32_t>(sqlite3_column_int64(ts.get(), 0));
      TriageVerdict v;
      v.verdict = text(ts.get(), 1);
      v.depth = static_cast<unsigned>(sqlite3_column_int64(ts.get(), 2));
      v.witness_cycles = static_cast<unsigned>(sqlite3_column_int64(ts.get(), 3));
      const std::string ports = text(ts.get(), 4);
      for (size_t a = 0; a < ports.size();) {
        const size_t b = std::min(ports.find(',', a), ports.size());
        v.ports.push_back(ports.substr(a, b - a));
        a = b + 1;
      }
      v.witness = text(ts.get(), 5);
      v.reason = text(ts.get(), 6);
      v.seconds = sqlite3_column_double(ts.get(), 7);
      v.proof = text(ts.get(), 8);
      for (MutantResult& r : results)
        if (r.mutant.id == mutant) r.triage = v;
    }
    Stmt es = prepare(db.get(), "SELECT mutant, reason FROM mutation_explanations WHERE run_id = ?");
    sqlite3_bind_int64(es.get(), 1, run.id);
    while (sqlite3_step(es.get()) == SQLITE_ROW) {
      const auto mutant = static_cast<uint32_t>(sqlite3_column_int64(es.get(), 0));
      for (MutantResult& r : results)
        if (r.mutant.id == mutant) r.explanation = text(es.get(), 1);
    }
    out.push_back(summarize(run, results));
  }
  return out;
}

}  // namespace dla::mutation
