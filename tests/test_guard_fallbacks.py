"""FC003 on guards that fail open (facts/outcomes.py): a guard's verdict (`blocked`, `jailbreak`,
`hallucination`, `is_safe`, `RailOutcome.allow()`) is both answers of its channel by name, so a
path where the check could not decide and the content is let through records what a genuine pass
records. Expected lines are the fallback's own, read from the source below."""

from __future__ import annotations

import json


def test_catch_all_returns_a_record_that_is_not_blocked(project):
    """nemoguardrails' Pangea rail: any failure of the service call is a pass."""
    project.write({"pangea.py": '''
        import logging

        log = logging.getLogger(__name__)


        async def guard_text(client, messages, mode):
            try:
                response = await client.post("https://guard.example/v1/text/guard", json={"messages": messages})
                response.raise_for_status()
                verdict = GuardResponse(**response.json())
            except Exception as e:
                log.error("guard service failed: %s", e)
                return outcome(GuardResult(blocked=False, bot_message=messages[-1]), mode)
            return outcome(verdict.result, mode)
        '''})
    assert project.findings() == [("pangea.py", "FC003", 13)]


def test_local_model_missing_is_not_a_jailbreak(project):
    project.write({"local.py": '''
        def check_jailbreak_locally(prompt):
            try:
                model = load_classifier()
                scores = model.predict([prompt])
                jailbreak_result = scores[0] > THRESHOLD
            except RuntimeError as e:
                log.error("classifier not available: %s", e)
                jailbreak_result = False
            cache[prompt] = jailbreak_result
            return jailbreak_result
        '''})
    assert project.findings() == [("local.py", "FC003", 8)]


def test_no_result_from_the_guard_service_allows(project):
    """`if result is None` after asking the service: a timeout reads as a pass."""
    project.write({"rail.py": '''
        async def jailbreak_rail(prompt, url):
            result = await jailbreak_request(prompt, url)
            if result is None:
                log.warning("jailbreak endpoint not reachable")
                return RailOutcome.allow()
            return RailOutcome.block() if result else RailOutcome.allow()
        '''})
    assert project.findings() == [("rail.py", "FC003", 5)]


def test_record_built_before_the_try_is_what_the_failure_returns(project):
    """crowdstrike's rail: the handlers only log, so what follows the try is the failure path,
    and it returns the pre-built pass. Reported where that record is returned."""
    project.write({"aidr.py": '''
        async def guard_chat(client, messages, mode):
            fallback = GuardResult(blocked=False, guard_output={"messages": messages})
            try:
                response = await client.post(URL, json={"messages": messages})
                response.raise_for_status()
                parsed = GuardResponse.model_validate(response.json())
            except HTTPStatusError as e:
                log.error("guard returned %s", e)
            except (HTTPClientError, ValidationError) as e:
                log.error("guard call failed: %s", e)
            else:
                return outcome(parsed.result, mode)
            return outcome(fallback, mode)
        '''})
    result = project.run("check", "--format", "json")
    [finding] = json.loads(result.stdout)["findings"]
    assert (finding["path"], finding["rule"], finding["line"]) == ("aidr.py", "FC003", 13)
    assert "GuardResult built at line 2 with blocked=False" in finding["message"]


def test_arm_that_logs_an_error_and_passes_by_position(project):
    """patronus' rail: without the chunks it cannot check, logs so, and records "no
    hallucination" through this file's helper, whose first parameter is `hallucination`."""
    project.write({"lynx.py": '''
        def _lynx_outcome(hallucination, reasoning):
            if hallucination:
                return RailOutcome.block(metadata={"reasoning": reasoning})
            return RailOutcome.allow()


        def check_hallucination(chunks, answer):
            if not chunks:
                log.error("cannot check hallucination without the retrieved chunks")
                return _lynx_outcome(False, None)
            reply = ask_lynx(chunks, answer)
            return _lynx_outcome(parse_lynx(reply), reply)
        '''})
    assert project.findings() == [("lynx.py", "FC003", 10)]


def test_failing_closed_and_marked_fail_open_stay_quiet(project):
    """Blocking on a failure, a record that says the check failed (`error=`, `fail_open=True`),
    a policy that is a setting (`if self.fail_open:`), and a handler that re-raises are all
    honest about the failure."""
    project.write({"honest.py": '''
        async def closed(client, text):
            try:
                reply = await client.post(URL, json={"text": text})
                verdict = parse(reply.json())
            except Exception:
                log.error("guard failed")
                return GuardResult(blocked=True)
            return GuardResult(blocked=verdict.blocked)


        async def marked(client, text):
            try:
                reply = await client.post(URL, json={"text": text})
                verdict = parse(reply.json())
            except Exception as e:
                return outcome(GuardResult(blocked=False, error=str(e)))
            return outcome(GuardResult(blocked=verdict.blocked))


        class Rail:
            async def configured(self, client, text):
                try:
                    reply = await client.post(URL, json={"text": text})
                    verdict = parse(reply.json())
                except Exception:
                    if self.fail_open:
                        return RailOutcome.allow()
                    return RailOutcome.block(reason="guard unavailable")
                return RailOutcome.block() if verdict.blocked else RailOutcome.allow()


        async def reraised(client, text):
            try:
                reply = await client.post(URL, json={"text": text})
                blocked = parse(reply.json()).blocked
            except Exception:
                blocked = False
                raise
            return blocked
        '''})
    assert project.findings() == []


def test_genuine_passes_and_ordinary_flags_stay_quiet(project):
    """Controls: nothing to check is no failure (`if not text`, a parameter, with no error
    logged); a field the service may omit (`.get("flagged", False)`) is its own answer; an
    empty scan (`if not entities`) is a genuine pass; a non-guard flag in a handler is no verdict;
    `blocking=False` is an I/O mode."""
    project.write({"quiet.py": '''
        def check_text(text):
            if not text:
                return GuardResult(blocked=False)
            return GuardResult(blocked=scan(text))


        def read_verdict(reply):
            data = reply.json()
            flagged = data.get("flagged", False)
            return flagged


        def scan_pii(analyzer, text):
            entities = analyzer.analyze(text)
            if not entities:
                return {"blocked": False}
            return {"blocked": True, "entities": entities}


        def load_plugin(name):
            try:
                module = importlib.import_module(name)
                ready = module.setup()
            except Exception:
                ready = False
            return ready


        def open_socket(address):
            try:
                sock = connect(address)
                sock.configure(timeout=5)
            except OSError:
                log.error("cannot connect")
                return Socket(blocking=False)
            return sock
        '''})
    assert project.findings() == []


def test_a_call_named_for_failure_records_the_failure(project):
    """sglang's role switch (session 38's sweep, judged false): `return _fail(…, safe_to_restore=True)`
    when the memory query raises is an explicit failure with its own message; the keyword describes
    it, and lets nothing through unnoticed. Control, reported before and after: the same keyword on a
    record not named for failure (`SwitchResult(safe_to_restore=True)`) is a pass."""
    project.write({"switch.py": '''
        def check_headroom(scheduler, required_gb):
            try:
                available_gb = get_available_gpu_memory(scheduler.device)
            except Exception as e:
                return _fail(f"failed to check headroom: {e}", safe_to_restore=True)
            if available_gb < required_gb:
                return _fail("not enough memory for graphs", safe_to_restore=True)
            return None


        def check_headroom_quietly(scheduler, required_gb):
            try:
                available_gb = get_available_gpu_memory(scheduler.device)
            except Exception:
                return SwitchResult(safe_to_restore=True)
            if available_gb < required_gb:
                return SwitchResult(safe_to_restore=False)
            return None
        '''})
    assert project.findings() == [("switch.py", "FC003", 15)]
