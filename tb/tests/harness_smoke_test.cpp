// Harness smoke tests on whatever DUT is configured (own RTL by default): every configuration
// builds, resets reproducibly, idles without protocol violations, and rejects bad input.
#define BOOST_TEST_MODULE dla_tb_harness_smoke
#define BOOST_TEST_DYN_LINK
#include <unistd.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "dla/simulation.h"

namespace tb = dla::tb;

namespace {

std::vector<std::string> expected_configs() {
  std::vector<std::string> names;
  std::stringstream list(DLA_EXPECTED_CONFIGS);  // DLA_CONFIGS joined by commas: "small,v1"
  for (std::string n; std::getline(list, n, ',');) names.push_back(n);
  return names;
}

std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("dla_tb_smoke_" + std::to_string(::getpid()) + "_" + name);
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_configuration_is_registered) {
  auto built = tb::simulation_configs();
  std::sort(built.begin(), built.end());
  auto expected = expected_configs();
  std::sort(expected.begin(), expected.end());
  BOOST_TEST(built == expected, boost::test_tools::per_element());
}

// The memories behind the ports have the configuration's address width (NVDLA's table:
// 32 bits on the nv_small family, 64 elsewhere): a 32-bit configuration's memory is the same
// byte under any upper address bits, as NVDLA drops them at its port.
BOOST_AUTO_TEST_CASE(memories_have_the_configurations_address_width) {
  const std::map<std::string, unsigned> width = {{"small", 32},         {"nv_small_256", 32},  {"nv_small_256_full", 32},
                                                 {"nv_medium_512", 64}, {"nv_medium_1024_full", 64}, {"nv_large", 64},
                                                 {"v1", 64}};
  for (const auto& cfg : tb::simulation_configs()) {
    BOOST_TEST_CONTEXT("config " << cfg) {
      const auto it = width.find(cfg);
      if (it == width.end()) continue;  // a configuration not in NVDLA's table
      auto sim = tb::make_simulation(cfg, tb::SimOptions{});
      dla::SparseMemory& mem = sim->memory(tb::MemPort::Dbb);
      BOOST_TEST(mem.address_bits() == it->second);
      mem.load(0x1'0000'1000ull, std::vector<uint8_t>{0x5a});
      BOOST_TEST(mem.is_written(0x1000) == (it->second == 32));
    }
  }
}

BOOST_AUTO_TEST_CASE(idle_run_is_clean_and_reproducible) {
  for (const auto& cfg : tb::simulation_configs()) {
    BOOST_TEST_CONTEXT("config " << cfg) {
      tb::SimOptions o;
      o.seed = 17;
      auto a = tb::make_simulation(cfg, o);
      auto b = tb::make_simulation(cfg, o);
      a->run_cycles(300);
      b->run_cycles(300);
      BOOST_TEST(a->config_name() == cfg);
      BOOST_TEST(a->cycle() == 300u);
      BOOST_TEST(a->stats().reset_cycles == b->stats().reset_cycles);
      BOOST_TEST(a->stats().reset_cycles >= 8u);
      BOOST_TEST(a->stats().reset_cycles <= 32u);
      BOOST_TEST(!a->interrupt());
      BOOST_TEST(!a->hang().has_value());
      for (const auto& v : a->protocol_violations()) BOOST_ERROR(v.to_string());
      BOOST_TEST(a->has_port(tb::MemPort::Dbb));
      if (!a->has_port(tb::MemPort::Sram)) {
        BOOST_CHECK_THROW(a->memory(tb::MemPort::Sram), std::invalid_argument);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(watchdog_ends_a_wait_for_an_interrupt_that_never_comes) {
  for (const auto& cfg : tb::simulation_configs()) {
    tb::SimOptions o;
    o.watchdog_cycles = 100;
    auto sim = tb::make_simulation(cfg, o);
    BOOST_TEST(!sim->run_until_interrupt(100000));
    BOOST_TEST(sim->cycle() == 100u);
    BOOST_REQUIRE(sim->hang().has_value());
    BOOST_TEST(sim->hang()->rfind("hang:intr-wait", 0) == 0u);
    BOOST_TEST(sim->csb_read(0) == tb::kCsbHangReadValue);
  }
}

BOOST_AUTO_TEST_CASE(waves_are_written_when_asked) {
  const auto cfg = tb::simulation_configs().front();
  const auto whole = temp_path("whole.fst");
  const auto window = temp_path("window.fst");
  {
    tb::SimOptions o;
    o.waves_path = whole.string();
    tb::make_simulation(cfg, o)->run_cycles(50);
    o.waves_path = window.string();
    o.waves_last_cycles = 20;
    tb::make_simulation(cfg, o)->run_cycles(50);
  }
  const auto window_prev = std::filesystem::path(tb::waves_previous_chunk_path(window.string()));
  BOOST_TEST(std::filesystem::file_size(whole) > 0u);
  BOOST_TEST(std::filesystem::file_size(window) > 0u);
  BOOST_TEST(std::filesystem::exists(window_prev));
  for (const auto& p : {whole, window, window_prev}) std::filesystem::remove(p);
}

BOOST_AUTO_TEST_CASE(bad_input_is_rejected_with_a_message) {
  BOOST_CHECK_EXCEPTION(tb::make_simulation("no_such_config", {}), std::invalid_argument,
                        [](const std::invalid_argument& e) {
                          return std::string(e.what()).find("no_such_config") != std::string::npos;
                        });
  const auto cfg = tb::simulation_configs().front();
  tb::SimOptions o;
  o.axi_profile = "warp";
  BOOST_CHECK_THROW(tb::make_simulation(cfg, o), std::invalid_argument);
  o = {};
  o.watchdog_cycles = 0;
  BOOST_CHECK_THROW(tb::make_simulation(cfg, o), std::invalid_argument);
  o = {};
  o.waves_path = "/nonexistent_dir_for_dla_tb/waves.fst";
  BOOST_CHECK_THROW(tb::make_simulation(cfg, o), std::invalid_argument);
  auto sim = tb::make_simulation(cfg, {});
  BOOST_CHECK_THROW(sim->csb_write(0x3, 0), std::invalid_argument);
}
