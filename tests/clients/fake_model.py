"""A fake model API on 127.0.0.1 for the real-client tests.

Speaks what the clients under test need of OpenAI's APIs:
- POST .../responses (the Responses API, streamed as server-sent events: Codex),
- POST .../chat/completions (streamed or not: fast-agent),
- GET .../models (a one-model list).
Every request body is appended, as one JSON line, to the log file named by
the first argument. Scripted answers: while the conversation holds no tool
result, the model calls the jp-kb `learn` tool (whatever name the client
gives it: the one tool whose name ends in `learn`) with the arguments in
the environment variable FAKE_LEARN_ARGS (JSON, default {"topic": "project"});
once a tool result is there, it answers "done".
Prints the port it listens on as its first line of stdout.
"""

import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = sys.argv[1]
LEARN_ARGS = os.environ.get("FAKE_LEARN_ARGS", '{"topic": "project"}')
lock = threading.Lock()
counter = [0]


def next_id(prefix):
    with lock:
        counter[0] += 1
        return f"{prefix}_{counter[0]}"


def learn_tool_name(tools):
    """(namespace or None, name) of the tool that is jp-kb's learn."""
    for tool in tools or []:
        if tool.get("type") == "namespace":
            for inner in tool.get("tools", []):
                name = inner.get("name", "")
                if name.endswith("learn"):
                    return tool.get("name"), name
        name = tool.get("name") or (tool.get("function") or {}).get("name", "")
        if name.endswith("learn"):
            return None, name
    return None, None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path.rstrip("/").endswith("/models"):
            self.send_json({"object": "list", "data": [{"id": "fake-model", "object": "model", "created": 0, "owned_by": "test"}]})
        else:
            self.send_json({"error": "not found"}, 404)

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            body = {"unparsed": raw.decode("utf-8", "replace")}
        with lock:
            with open(LOG, "a", encoding="utf-8") as log:
                log.write(json.dumps({"path": self.path, "body": body}) + "\n")
        if self.path.rstrip("/").endswith("/responses"):
            self.answer_responses(body)
        elif self.path.rstrip("/").endswith("/chat/completions"):
            self.answer_chat(body)
        else:
            self.send_json({"error": "not found"}, 404)

    def send_json(self, value, status=200):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_events(self, events):
        data = b"".join(
            (f"event: {e['type']}\n" if "type" in e else "").encode() + b"data: " + json.dumps(e).encode() + b"\n\n"
            for e in events
        )
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def answer_responses(self, body):
        items = body.get("input") or []
        answered = any(isinstance(i, dict) and i.get("type") == "function_call_output" for i in items)
        namespace, name = learn_tool_name(body.get("tools"))
        rid = next_id("resp")
        if answered or name is None:
            item = {"type": "message", "role": "assistant", "id": next_id("msg"),
                    "content": [{"type": "output_text", "text": "done", "annotations": []}]}
        else:
            item = {"type": "function_call", "id": next_id("fc"), "call_id": next_id("call"),
                    "name": name, "arguments": LEARN_ARGS}
            if namespace:
                item["namespace"] = namespace
        usage = {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 2}
        self.send_events([
            {"type": "response.created", "response": {"id": rid}},
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {"type": "response.completed", "response": {"id": rid, "usage": usage, "output": [item]}},
        ])

    def answer_chat(self, body):
        messages = body.get("messages") or []
        answered = any(m.get("role") == "tool" for m in messages)
        _, name = learn_tool_name(body.get("tools"))
        cid = next_id("chatcmpl")
        if answered or name is None:
            message = {"role": "assistant", "content": "done"}
            finish = "stop"
        else:
            message = {"role": "assistant", "content": None, "tool_calls": [
                {"id": next_id("call"), "type": "function", "function": {"name": name, "arguments": LEARN_ARGS}}]}
            finish = "tool_calls"
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        if not body.get("stream"):
            self.send_json({"id": cid, "object": "chat.completion", "created": 0, "model": body.get("model", "fake-model"),
                            "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage})
            return
        delta = dict(message)
        if "tool_calls" in delta:
            delta["tool_calls"] = [dict(c, index=0) for c in delta["tool_calls"]]
        chunks = [
            {"id": cid, "object": "chat.completion.chunk", "created": 0, "model": body.get("model", "fake-model"),
             "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            {"id": cid, "object": "chat.completion.chunk", "created": 0, "model": body.get("model", "fake-model"),
             "choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": usage},
        ]
        data = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
