"""gateway module_utils: worker URLs, registry diff, drain and join waits against a scripted gateway.

The fake below plays smg 1.13.0's admin API as observed on a running smg 1.13.0 (docs/gateway.md):
DELETE marks a worker "draining" and it leaves the registry once its requests in flight are done;
POST registers it in the background, healthy after some polls. The real gateway runs in molecule/gateway.
"""
import pytest

from ansible_collections.specdeploy.sglang.plugins.module_utils import gateway as gw


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t

    def sleep(self, s):
        self.t += s


class FakeGateway:
    """Registry {url: worker}; drains after `drain_polls` GETs, gets healthy after `join_polls` GETs."""

    def __init__(self, urls=(), drain_polls=2, join_polls=2, down=False, stuck=False):
        self.reg = {u: {"id": "id-%d" % i, "url": u, "is_healthy": True, "status": "ready", "load": 1}
                    for i, u in enumerate(urls)}
        self.drain_polls, self.join_polls = drain_polls, join_polls
        self.down, self.stuck = down, stuck
        self.calls = []
        self.countdown = {}

    def request(self, method, path, body=None):
        self.calls.append((method, path))
        if self.down:
            raise OSError("Connection refused")
        if method == "GET" and path == "/workers":
            for url, n in list(self.countdown.items()):
                self.countdown[url] = n - 1
                if n - 1 <= 0:
                    del self.countdown[url]
                    w = self.reg[url]
                    if w["status"] == "draining":
                        if not self.stuck:
                            del self.reg[url]
                        else:
                            self.countdown[url] = 1
                    else:
                        w.update(is_healthy=True, status="ready")
            return 200, {"workers": list(self.reg.values()), "total": len(self.reg)}
        if method == "POST" and path == "/workers":
            url = body["url"]
            self.reg[url] = {"id": "new-" + url, "url": url, "is_healthy": False, "status": "pending", "load": 0}
            self.countdown[url] = self.join_polls
            return 202, {"status": "accepted"}
        if method == "DELETE":
            wid = path.rsplit("/", 1)[1]
            for url, w in self.reg.items():
                if w["id"] == wid:
                    w.update(status="draining", is_healthy=False)
                    self.countdown[url] = self.drain_polls
                    return 202, {"status": "accepted"}
            return 404, {"error": "not found"}
        if method == "GET" and path == "/readiness":
            return 200, {"status": "ready"}
        return 404, None


def gate(fake, clock):
    return gw.Gateway("http://127.0.0.1:8000", http=fake, clock=clock, sleep=clock.sleep)


def test_instance_url_follows_the_listen_address():
    assert gw.instance_url({"host": "127.0.0.1", "port": 30001}) == "http://127.0.0.1:30001"
    assert gw.instance_url({}) == "http://127.0.0.1:30000"
    assert gw.instance_url({"host": "0.0.0.0", "port": 30000}, "10.1.2.3") == "http://10.1.2.3:30000"
    assert gw.instance_url({"host": "::", "port": 1}, "fd00::1") == "http://[fd00::1]:1"
    with pytest.raises(gw.GatewayError, match="gateway_worker_address"):
        gw.instance_url({"host": "0.0.0.0"})


def test_fleet_workers_refuses_two_instances_on_one_url():
    hosts = {"a": {"instances": [{"name": "main", "spec": {"port": 30001}}]},
             "b": {"instances": [{"name": "main", "spec": {"port": 30001}}]}}
    with pytest.raises(gw.GatewayError, match="same URL"):
        gw.fleet_workers(hosts)
    hosts["b"]["instances"][0]["spec"]["port"] = 30002
    assert [w["url"] for w in gw.fleet_workers(hosts)] == ["http://127.0.0.1:30001", "http://127.0.0.1:30002"]


def test_registry_diff_reports_missing_and_unknown():
    fleet = [{"host": "a", "instance": "main", "url": "http://h:1"}, {"host": "b", "instance": "main", "url": "http://h:2"}]
    reg = gw.parse_workers({"workers": [{"id": "x", "url": "http://h:1/", "is_healthy": True, "status": "ready"},
                                        {"id": "y", "url": "http://stray:9", "is_healthy": False}]})
    diff = gw.registry_diff(fleet, reg)
    assert [m["host"] for m in diff["missing"]] == ["b"]
    assert diff["unknown"] == ["http://stray:9"]
    assert diff["present"][0]["healthy"] is True


def test_parse_workers_refuses_a_non_list():
    with pytest.raises(gw.GatewayError, match="worker list"):
        gw.parse_workers({"error": "unauthorized"})


def test_drain_waits_until_the_worker_left():
    clock, fake = Clock(), FakeGateway(["http://h:1", "http://h:2"], drain_polls=3)
    out = gate(fake, clock).drain(["http://h:1"], timeout=30)
    assert out["http://h:1"]["registered"] and out["http://h:1"]["in_flight"] == 1
    assert out["http://h:1"]["left_after_s"] > 0
    assert ("DELETE", "/workers/id-0") in fake.calls
    assert list(fake.reg) == ["http://h:2"]


def test_drain_of_an_unknown_worker_is_a_no_op():
    clock, fake = Clock(), FakeGateway(["http://h:2"])
    out = gate(fake, clock).drain(["http://h:1"], timeout=30)
    assert out["http://h:1"]["registered"] is False
    assert not any(c[0] == "DELETE" for c in fake.calls)


def test_drain_is_bounded_and_says_what_is_left():
    clock, fake = Clock(), FakeGateway(["http://h:1"], stuck=True)
    with pytest.raises(gw.GatewayError, match=r"http://h:1 still draining after 5s \(in flight: http://h:1=1\)"):
        gate(fake, clock).drain(["http://h:1"], timeout=5)


def test_join_adds_and_waits_for_healthy():
    clock, fake = Clock(), FakeGateway([], join_polls=3)
    out = gate(fake, clock).join(["http://h:1"], timeout=30)
    assert out["http://h:1"]["added"] and out["http://h:1"]["healthy_after_s"] >= 2
    assert fake.reg["http://h:1"]["status"] == "ready"


def test_join_of_a_ready_worker_adds_nothing():
    clock, fake = Clock(), FakeGateway(["http://h:1"])
    out = gate(fake, clock).join(["http://h:1"], timeout=30)
    assert out["http://h:1"]["added"] is False
    assert not any(c[0] == "POST" for c in fake.calls)


def test_join_times_out_naming_the_worker():
    clock, fake = Clock(), FakeGateway([], join_polls=10 ** 6)
    with pytest.raises(gw.GatewayError, match="http://h:1 not healthy after 4s .*pending"):
        gate(fake, clock).join(["http://h:1"], timeout=4)


def test_unreachable_gateway_is_a_clear_error():
    clock, fake = Clock(), FakeGateway([], down=True)
    with pytest.raises(gw.GatewayError, match="unreachable.*Connection refused"):
        gate(fake, clock).workers()
