"""Independent verifier: the lab host serves a real SGLang that decodes deterministically."""
import json

GEN = ("/opt/sglang-lab/venv/bin/python -c \"import json,urllib.request;"
       "r=urllib.request.Request('http://127.0.0.1:30000/generate',"
       "data=json.dumps({'text':'The quick brown fox','sampling_params':"
       "{'temperature':0,'max_new_tokens':12}}).encode(),"
       "headers={'Content-Type':'application/json'});"
       "print(urllib.request.urlopen(r,timeout=60).read().decode())\"")


def test_service_active(host):
    svc = host.service("sglang-lab")
    assert svc.is_running, host.run("journalctl -u sglang-lab --no-pager -n 50").stdout
    assert svc.is_enabled


def test_port_listens(host):
    assert host.socket("tcp://127.0.0.1:30000").is_listening


def test_generate_is_deterministic(host):
    first = json.loads(host.check_output(GEN))
    second = json.loads(host.check_output(GEN))
    assert first["meta_info"]["completion_tokens"] > 0
    assert first["output_ids"] == second["output_ids"]
    assert first["text"] == second["text"]
