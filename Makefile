# specdeploy.sglang: developer entry points (users run bin/specdeploy and the playbooks of the installed
# collection, README.md). The two that matter on a fresh machine:
#   make lab    bring the lab up and run playbooks/deploy.yml against it
#   make test   everything: lint, unit + oracle tests, ansible-test sanity, Molecule scenarios
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c
ROOT := $(CURDIR)
VENV := $(ROOT)/.venv
LAB := $(ROOT)/.lab
PY := $(VENV)/bin/python
BOOTSTRAP_PYTHON ?= python3.11
ANSIBLE_WHEEL_VERSION := 12.3.0
COLLECTIONS := $(LAB)/collections
# containers.podman alone (for checks that must not see this checkout through the symlink)
COLLECTIONS_DEPS := $(LAB)/collections-deps
LAB_HOSTS ?= 2
# Molecule lanes run at once, the scenarios of a lane one after another (tools/molecule_lanes.py).
# Three lanes: measured on 2 cores with two lanes (2026-12-01), gpu_env_weights 13 min + server 38 min
# and fleet 42 min + env_host ~30 min made one lane 72 min; the lanes mostly wait on one SGLang start each.
# `make molecule MOLECULE_SCENARIOS="server"` runs the named scenarios as one lane instead.
# monitoring (one host, a real Prometheus; its wall time: docs/metrics.md) runs after server in its lane.
MOLECULE_LANES ?= "gpu_env_weights env_host" "server monitoring" "fleet"
MOLECULE_SCENARIOS ?=

export PATH := $(VENV)/bin:$(PATH)
export CONTAINERS_CONF := $(ROOT)/containers.conf
export ANSIBLE_COLLECTIONS_PATH := $(COLLECTIONS)
export ANSIBLE_CONFIG := $(ROOT)/ansible.cfg
# LAB-ONLY: Ansible reaches lab hosts over ssh as it reaches production hosts: the host's own sshd runs
# per connection over `podman exec -i` (lab/ssh_proxy), the lab key from `make lab-image`, one multiplexed
# connection per host kept open across tasks (ControlPersist; its socket under this checkout's .lab, so two
# checkouts' hosts of the same name never share one), no compression (-C) on a local pipe.
export SPECDEPLOY_LAB_SSH := $(LAB)/ssh
export ANSIBLE_REMOTE_USER := root
export ANSIBLE_PRIVATE_KEY_FILE := $(SPECDEPLOY_LAB_SSH)/id_ed25519
export ANSIBLE_SSH_ARGS := -o ControlMaster=auto -o ControlPersist=300s
export ANSIBLE_SSH_COMMON_ARGS := -o ProxyCommand="$(ROOT)/lab/ssh_proxy %h" -o ControlPath=$(SPECDEPLOY_LAB_SSH)/cm-%C \
  -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR
export SPECDEPLOY_SGLANG_PYTHON := $(LAB)/sglang-venv/bin/python
export SPECDEPLOY_LAB_MODELS := $(LAB)/models
export SPECDEPLOY_LAB_LOCK := $(ROOT)/lab/sglang-0.5.23-cpu.lock
export SPECDEPLOY_LAB_WHEELHOUSE := $(LAB)/wheelhouse
# Per-release controller venvs of SGLang, <dir>/<version>/bin/python (lab/lab.py kit; lab/kits.py).
export SPECDEPLOY_LAB_KITS ?= $(LAB)/kits
# The releases `make oracle` checks: the newest in full plus ORACLE_SAMPLE verified older ones drawn by
# a seed that rotates daily (tools/sglang-release sample; SPECDEPLOY_ORACLE_SEED fixes the draw). By
# default `make lab-kit` builds the kits of exactly those (the newest runs in .lab/sglang-venv), so a
# fresh machine builds 2 kits, not 16; SPECDEPLOY_KIT_RELEASES=all builds every release's.
ORACLE_SAMPLE ?= 2
ORACLE_RELEASES := $(shell python3 $(ROOT)/tools/sglang-release sample $(ORACLE_SAMPLE))
export SPECDEPLOY_KIT_RELEASES ?= $(filter-out $(firstword $(ORACLE_RELEASES)),$(ORACLE_RELEASES))
# LAB-ONLY: the controller venv, marked as a finished gpu_env env (lab/lab.py kit), mounted by the
# server and fleet scenarios so their hosts skip the 2.9 GB install (gpu_env_weights installs for real).
export SPECDEPLOY_LAB_PREBUILT_ENV := $(LAB)/sglang-venv
# LAB-ONLY: the 0.5.22 kit, marked the same way (lab/lab.py PREBUILT_KITS): env_host's starting release.
export SPECDEPLOY_LAB_PREBUILT_ENV_0_5_22 := $(SPECDEPLOY_LAB_KITS)/0.5.22
# The gateway scenario's offline wheelhouse: smg and its dependencies, exactly the role's hash lock.
GATEWAY_LOCK := $(ROOT)/roles/gateway/files/smg-1.13.0.lock
export SPECDEPLOY_LAB_GATEWAY_WHEELHOUSE := $(LAB)/gateway-wheelhouse
# LAB-ONLY: Debian's prometheus and the dependencies the image lacks (lab/lab.py debs), for the monitoring scenario
export SPECDEPLOY_LAB_DEBS := $(LAB)/debs

.PHONY: help venv lab-deps lab-image lab-kit lab-debs lab-gateway-wheelhouse monitoring-check lab-up lab-down lab-status lab lint reference unit \
	oracle oracle-releases sanity molecule bench test build clean lock lock-cpu lock-cuda lock-check

help:
	@sed -n '1,4p' Makefile

# ---- tools -----------------------------------------------------------------------------------
$(VENV)/.stamp: requirements-dev.txt
	$(BOOTSTRAP_PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q -U pip
	$(VENV)/bin/pip install -q -r requirements-dev.txt
	touch $@

# containers.podman (the connection plugin to lab hosts) comes from PyPI's `ansible` wheel:
# Galaxy is not reachable from these machines.
$(COLLECTIONS)/.stamp: $(VENV)/.stamp
	mkdir -p $(COLLECTIONS)/ansible_collections/specdeploy $(LAB)/dl
	ln -sfn $(ROOT) $(COLLECTIONS)/ansible_collections/specdeploy/sglang
	$(VENV)/bin/pip download -q --no-deps -d $(LAB)/dl ansible==$(ANSIBLE_WHEEL_VERSION)
	cd $(COLLECTIONS) && $(PY) -m zipfile -e $(LAB)/dl/ansible-$(ANSIBLE_WHEEL_VERSION)-py3-none-any.whl $(LAB)/dl/ansible
	rm -rf $(COLLECTIONS)/ansible_collections/containers
	mkdir -p $(COLLECTIONS)/ansible_collections/containers
	cp -r $(LAB)/dl/ansible/ansible_collections/containers/podman $(COLLECTIONS)/ansible_collections/containers/
	rm -rf $(COLLECTIONS_DEPS) && mkdir -p $(COLLECTIONS_DEPS)/ansible_collections
	ln -sfn $(COLLECTIONS)/ansible_collections/containers $(COLLECTIONS_DEPS)/ansible_collections/containers
	rm -rf $(LAB)/dl/ansible
	touch $@

venv: $(VENV)/.stamp $(COLLECTIONS)/.stamp

# ---- lab -------------------------------------------------------------------------------------
lab-deps:
	python3 lab/lab.py deps

lab-image: lab-deps
	python3 lab/lab.py image

lab-kit: venv
	$(PY) lab/lab.py kit

lab-debs: lab-image
	python3 lab/lab.py debs

# pip checks every wheel against the lock's sha256 (--require-hashes); CPython 3.11 x86_64 (the lab hosts')
$(LAB)/gateway-wheelhouse/.stamp: $(GATEWAY_LOCK) | $(VENV)/.stamp
	mkdir -p $(LAB)/gateway-wheelhouse
	$(VENV)/bin/pip download -q --no-deps --require-hashes --only-binary=:all: --python-version 3.11 \
	  --implementation cp --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
	  --platform manylinux_2_28_x86_64 --platform manylinux1_x86_64 \
	  -d $(LAB)/gateway-wheelhouse -r $(GATEWAY_LOCK)
	touch $@

lab-gateway-wheelhouse: $(LAB)/gateway-wheelhouse/.stamp

lab-up: lab-image lab-kit
	python3 lab/lab.py up --count $(LAB_HOSTS)

lab-down:
	python3 lab/lab.py down

lab-status:
	python3 lab/lab.py status

lab: lab-up
	ansible-playbook playbooks/deploy.yml -i inventories/lab

# ---- locks (docs/locks.md) -------------------------------------------------------------------
# `make lock` reruns every committed lock's own command (its generated_by header line) and rewrites it;
# `make lock-cpu SGLANG=0.5.24 [LOCK_ARGS="--pin transformers==5.6.0"]` adds a lab CPU lock,
# `make lock-cuda SGLANG=0.5.24 [LOCK_ARGS="--extra-wheel dist/x.whl"]` a CUDA lock for GPU hosts.
SGLANG ?=
LOCK_ARGS ?=
lock: venv
	$(PY) tools/lock.py regen $(LOCK_ARGS)

lock-check: venv
	$(PY) tools/lock.py regen --check $(LOCK_ARGS)

lock-cpu: venv
	$(PY) tools/lock.py cpu $(SGLANG) $(LOCK_ARGS)

lock-cuda: venv
	$(PY) tools/lock.py cuda $(SGLANG) $(LOCK_ARGS)

# ---- tests -----------------------------------------------------------------------------------
lint: venv
	ansible-lint --offline --profile production
	$(PY) tools/lock.py check
	$(PY) tools/gen_reference.py --check
	# the built tarball refers to nothing outside it (../shared, reference section numbers, this path)
	$(PY) tools/check_artifact.py
	# changelog fragments parse (every item a string, known sections)
	antsibull-changelog lint
	# the example execution environment renders with ansible-builder 3 (no image is built)
	ee=$$(mktemp -d) && trap 'rm -rf "$$ee"' EXIT
	ansible-galaxy collection build --force --output-path "$$ee" >/dev/null
	cp docs/examples/execution-environment.yml "$$ee/"
	ansible-builder create -f "$$ee/execution-environment.yml" -c "$$ee/context" >/dev/null
	test -s "$$ee/context/Containerfile" && echo "execution environment: ansible-builder create rendered $$(basename $$ee)/context/Containerfile"

# docs/reference.md: the role/module/playbook reference, generated from argument_specs and module docs; and
# docs/interfaces.md's table of spec keys and the flags they render, from sglang_engine/common.py SPEC_FLAGS.
reference: venv
	$(PY) tools/gen_reference.py

unit: $(if $(SKIP_PREREQS),,venv lab-deps lab-kit)
	pytest -q -p no:cacheprovider tests/unit

# Differential tests against SGLang's own resolver. `make oracle`: ORACLE_RELEASES (the newest release
# in full, 1000 generated cases, and the sampled older ones, 300 each); `make oracle-releases`: every
# release the engine knows (or RELEASES="0.5.16 0.5.22"), by hand, after `make lab-kit
# SPECDEPLOY_KIT_RELEASES=all`. A missing kit fails the run. Reports: .lab/oracle/<release>.json.
oracle: $(if $(SKIP_PREREQS),,venv lab-kit)
	@echo "oracle: releases $(ORACLE_RELEASES)"
	SPECDEPLOY_ORACLE_RELEASES="$(ORACLE_RELEASES)" pytest -q -p no:cacheprovider tests/oracle

oracle-releases: venv
	SPECDEPLOY_ORACLE_RELEASES="$${RELEASES:-all}" pytest -q -p no:cacheprovider tests/oracle/test_differential.py

# ansible-test's own pip bootstrap comes from ci-files.testing.ansible.com, which these machines
# cannot reach: tests/sanity/get_pip_offline.py stands in for it with pip's wheel from PyPI.
SANITY_VENV := $(LAB)/sanity-venv
ANSIBLE_TEST_PIP := 24.2
$(SANITY_VENV)/.stamp: requirements-dev.txt tests/sanity/get_pip_offline.py
	rm -rf $(SANITY_VENV)
	$(BOOTSTRAP_PYTHON) -m venv $(SANITY_VENV)
	reqs=$$($(PY) -c 'import ansible_test, os; print(os.path.dirname(ansible_test.__file__))')/_data/requirements
	$(SANITY_VENV)/bin/pip install -q $$(grep '^ansible-core==' requirements-dev.txt) $$(for f in $$reqs/sanity.*.txt; do echo -r $$f; done)
	mkdir -p $(LAB)/dl $(HOME)/.ansible/test/cache
	$(PY) -m pip download -q --no-deps -d $(LAB)/dl pip==$(ANSIBLE_TEST_PIP)
	sed "s#@PIP_WHEEL@#$(LAB)/dl/pip-$(ANSIBLE_TEST_PIP)-py3-none-any.whl#" tests/sanity/get_pip_offline.py \
	  > $(HOME)/.ansible/test/cache/get_pip_$(subst .,_,$(ANSIBLE_TEST_PIP)).py
	touch $@

# Sanity runs on what ships: the built artifact, installed into a proper ansible_collections tree.
sanity: $(if $(SKIP_PREREQS),,venv $(SANITY_VENV)/.stamp)
	tmp=$$(mktemp -d)
	trap 'rm -rf "$$tmp"' EXIT
	ansible-galaxy collection build --force --output-path "$$tmp" >/dev/null
	ansible-galaxy collection install --force -p "$$tmp/c" "$$tmp"/specdeploy-sglang-*.tar.gz >/dev/null 2>&1
	# the installed artifact's playbooks resolve by FQCN (nothing from this checkout on the path)
	for pb in "$$tmp"/c/ansible_collections/specdeploy/sglang/playbooks/*.yml; do
	  name=$$(basename "$$pb" .yml)
	  ANSIBLE_COLLECTIONS_PATH="$$tmp/c:$(COLLECTIONS_DEPS)" ansible-playbook --syntax-check \
	    -i localhost, "specdeploy.sglang.$$name" >/dev/null
	  echo "artifact: specdeploy.sglang.$$name resolves and parses"
	done
	# (the README's commands run from the installed artifact in tests/unit/test_installed_collection.py)
	cd "$$tmp/c/ansible_collections/specdeploy/sglang"
	printf 'tests/output/\n' > .gitignore  # ansible-test's own delegation venvs live there
	git init -q . && git add -A >/dev/null
	PATH=$(SANITY_VENV)/bin:$$PATH ansible-test sanity --local --python 3.11 --color no

molecule: $(if $(SKIP_PREREQS),,venv lab-image lab-kit lab-debs lab-gateway-wheelhouse)
	$(PY) tools/molecule_lanes.py $(if $(strip $(MOLECULE_SCENARIOS)),"$(MOLECULE_SCENARIOS)",$(MOLECULE_LANES))

# The monitoring role's files for inventories/production, written on the controller alone (no host contacted),
# checked by Prometheus' own promtool (lab/lab.py deps installs Debian's prometheus).
monitoring-check: $(if $(SKIP_PREREQS),,venv lab-deps)
	out=$$(mktemp -d) && trap 'rm -rf "$$out"' EXIT
	ansible-playbook -i inventories/production playbooks/monitoring.yml -e monitoring_read_hosts=false \
	  -e specdeploy_report_dir="$$out" >/dev/null
	promtool check config "$$out/monitoring/prometheus.yml"
	promtool check rules "$$out"/monitoring/rules/*.yml

# Fleet benchmarks (bench/fleet_bench.py): ratios against a baseline run side by side; not part of test.
bench: venv lab-image lab-kit
	$(PY) bench/fleet_bench.py all

# make test: the Molecule lanes with lint, unit, oracle and sanity beside them (one more lane of mostly
# one core: lint alone before the lanes left the other core idle for its minute). The prerequisites
# are built once, before either starts (SKIP_PREREQS: the two sub-makes do not rebuild them at the same
# time; the gateway wheelhouse is not one: the gateway scenario is not in make test). What failed is
# printed last: the checks' log tail, then one line.
test: lab-deps lab-image lab-kit lab-debs $(SANITY_VENV)/.stamp
	@echo "make test: lint, unit, oracle, sanity and monitoring-check run beside the Molecule lanes (log: .lab/checks.log)"
	$(MAKE) --no-print-directory lint unit oracle sanity monitoring-check SKIP_PREREQS=1 > $(LAB)/checks.log 2>&1 & checks=$$!
	mrc=0; $(MAKE) --no-print-directory molecule SKIP_PREREQS=1 || mrc=$$?
	crc=0; wait $$checks || crc=$$?
	if [ $$crc != 0 ]; then
	  echo; echo "======== the end of .lab/checks.log (lint, unit, oracle, sanity) ========"; tail -n 80 $(LAB)/checks.log
	fi
	echo "make test: molecule $$([ $$mrc = 0 ] && echo passed || echo 'FAILED (its digest above)');" \
	  "lint, unit, oracle, sanity, monitoring-check $$([ $$crc = 0 ] && echo passed || echo 'FAILED (the end of .lab/checks.log above)')"
	[ $$mrc = 0 ] && [ $$crc = 0 ]

build: venv
	ansible-galaxy collection build --force

clean: lab-down
	rm -rf $(VENV) $(COLLECTIONS)
