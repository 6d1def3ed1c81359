"""The REST side's common machinery: one middleware that authenticates, applies the global
limiter and injected faults, parses JSON and multipart bodies, validates them, records every
request, renders Discord's JSON errors and adds rate-limit headers to every answer."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from laurel_console.localdiscord import errors
from laurel_console.localdiscord.commands import CommandRegistry
from laurel_console.localdiscord.errors import DiscordError
from laurel_console.localdiscord.faults import SERVER_ERRORS, Fault, FaultPlan
from laurel_console.localdiscord.gateway import Gateway
from laurel_console.localdiscord.interactions import Pulse
from laurel_console.localdiscord.limits import (
    SpecValidatorProtocol,
    Violation,
    check_limits,
    violations_from,
)
from laurel_console.localdiscord.messages import MessageStore, UploadedFile
from laurel_console.localdiscord.state import World

_log = logging.getLogger(__name__)
API_PREFIX = "/api/v10"
BODY: web.RequestKey[Any] = web.RequestKey("localdiscord_body", object)
FILES: web.RequestKey[Sequence[UploadedFile]] = web.RequestKey("localdiscord_files", Sequence)
# Routes that authenticate with the token in their path, not with the bot's Authorization.
TOKEN_ROUTES = ("/interactions/", "/webhooks/")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))


def json_response(data: object, status: int = 200) -> web.Response:
    # Exactly "application/json", as Discord sends it: discord.py compares the header with
    # that string and takes anything else (say, with "; charset=utf-8") for plain text.
    body = dumps(data).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def no_content() -> web.Response:
    return web.Response(status=204)


@dataclass
class RecordedRequest:
    method: str
    path: str
    route: str  # "POST /channels/{channel_id}/messages"; for an unhandled one, method and path
    query: dict[str, str]
    at: float = field(default_factory=time.monotonic)
    body: Any = None  # the JSON body, or a multipart request's payload_json
    files: list[dict[str, Any]] = field(default_factory=list)  # field, filename, size
    status: int = 0
    response: Any = None
    fault: str | None = None

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Backend:
    """What the route handlers share; built once by LocalDiscord."""

    world: World
    store: MessageStore
    commands: CommandRegistry
    gateway: Gateway
    faults: FaultPlan
    rest_url: Callable[[], str]
    gateway_url: Callable[[], str]


class Buckets:
    """Honest X-RateLimit-* numbers: a window of `limit` requests per route and major
    parameter. Nothing is enforced here (see FaultPlan.limit_rate and injected 429s)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self._windows: dict[tuple[str, str], tuple[float, int]] = {}

    def headers(self, route: str, major: str) -> dict[str, str]:
        bucket = hashlib.sha1(route.encode()).hexdigest()[:16]
        now = time.monotonic()
        start, used = self._windows.get((bucket, major), (now, 0))
        if now - start >= self.window:
            start, used = now, 0
        used += 1
        self._windows[(bucket, major)] = (start, used)
        reset_after = max(0.0, self.window - (now - start))
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(0, self.limit - used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
        }


class RestLayer:
    def __init__(self, backend: Backend, validator: SpecValidatorProtocol | None) -> None:
        self.backend = backend
        self.validator = validator
        config = backend.world.config
        self.buckets = Buckets(config.bucket_limit, config.bucket_window)
        self.requests: list[RecordedRequest] = []
        self.violations: list[Violation] = []
        self.unhandled: list[RecordedRequest] = []
        self.pulse = Pulse()
        self.in_flight = 0
        self.errors: list[str] = []  # tracebacks of the stand-in's own failures
        self.counts: Counter[tuple[str, int]] = Counter()  # (route, status): kept when lean too
        self.lean = backend.world.config.lean

    @property
    def token(self) -> str:
        return self.backend.world.token

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX + "/"):
            return await handler(request)
        match = request.match_info
        known = match.http_exception is None
        template = match.route.resource.canonical if known and match.route.resource else ""
        template = template.removeprefix(API_PREFIX)
        route = f"{request.method} {template}" if known else f"{request.method} {request.path}"
        record = RecordedRequest(request.method, request.path, route, dict(request.query))
        if not self.lean:
            self.requests.append(record)
        self.in_flight += 1
        try:
            response = await self._serve(request, handler, record, template if known else None)
        except DiscordError as error:
            response = json_response(error.body(), error.status)
        except Exception:  # a bug in the stand-in: answer as Discord would, and keep it
            self.errors.append(f"{route}\n{traceback.format_exc()}")
            _log.exception("LocalDiscord failed on %s", route)
            response = json_response({"message": "500: Internal Server Error", "code": 0}, 500)
        finally:
            self.in_flight -= 1
        if not known and not self.lean:
            self.unhandled.append(record)
        if response.status != 429:
            major = match.get("channel_id") or match.get("guild_id") or match.get("webhook_id", "")
            response.headers.update(self.buckets.headers(route, major))
        response.headers["Via"] = "1.1 google"  # discord.py only trusts a 429 that has one
        record.status = response.status
        self.counts[route, response.status] += 1
        if not self.lean and isinstance(response, web.Response) and response.body is not None:
            record.response = _decode(response)
        self.pulse.fire()
        return response

    async def settle(self, iterations: int) -> None:
        """Wait until no request is being answered, then let the event loop run a few times:
        enough for a client in this process to read the last answer and act on it (discord.py
        registers a view only once the answer that carried it has arrived)."""
        await self.pulse.until(lambda: True if self.in_flight == 0 else None, 5.0, "busy")
        for _ in range(iterations):
            await asyncio.sleep(0)

    async def _serve(
        self, request: web.Request, handler: Handler, record: RecordedRequest, template: str | None
    ) -> web.StreamResponse:
        if template is None:
            return json_response({"message": "404: Not Found", "code": 0}, 404)
        authorization = request.headers.get("Authorization")
        if not template.startswith(TOKEN_ROUTES) and authorization != f"Bot {self.token}":
            raise errors.unauthorized()
        # Interaction endpoints are not bound by the global rate limit (Discord's docs).
        limiter = None if template.startswith(TOKEN_ROUTES) else self.backend.faults.limiter
        if limiter is not None:
            wait = limiter.take()
            if wait > 0:
                record.fault = "limiter"
                return rate_limited(Fault("global_rate_limit", retry_after=wait))
        await self._parse(request, record)
        channel = request.match_info.get("channel_id")
        fault = self.backend.faults.take(record.route, int(channel) if channel else None)
        if fault is not None:
            record.fault = fault.kind
            if fault.kind == "delay" and not fault.after_store:
                self.pulse.fire()  # whoever waits for the request to be held sees it now
                await asyncio.sleep(fault.seconds)
                fault = None
            elif not fault.after_store:
                return fault_response(fault)
        self._validate(request.method, template, record.body)
        response = await handler(request)
        if fault is not None and fault.kind == "delay":  # took effect; the answer is held
            await asyncio.sleep(fault.seconds)
        elif fault is not None:  # after_store: it took effect, and the client hears a 5xx
            return fault_response(fault)
        return response

    async def _parse(self, request: web.Request, record: RecordedRequest) -> None:
        body: Any = None
        files: list[UploadedFile] = []
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    body = _loads(await part.text())
                elif part.name:
                    data = bytes(await part.read())
                    content_type = part.headers.get("Content-Type", "application/octet-stream")
                    files.append(
                        UploadedFile(part.name, part.filename or "file", content_type, data)
                    )
        elif request.can_read_body:
            text = await request.text()
            body = _loads(text) if text else None
        request[BODY] = body
        request[FILES] = files
        record.body = body
        record.files = [
            {"field": f.field, "filename": f.filename, "size": len(f.data)} for f in files
        ]

    def _validate(self, method: str, template: str, body: object) -> None:
        if self.lean:
            return
        spec = self.validator.validate(method, template, body) if self.validator else []
        problems = check_limits(method, template, body)
        found = violations_from(method, template, problems, spec)
        if not found:
            return
        self.violations.extend(found)
        if self.backend.world.config.reject_violations:
            tree = list(problems) + [((), "SPEC_VIOLATION", message) for message in spec]
            raise errors.invalid_form_body(tree)


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise errors.bad_request(50109, "The request body contains invalid JSON.") from None


def _decode(response: web.Response) -> Any:
    if response.content_type != "application/json" or not isinstance(response.body, bytes):
        return None
    try:
        return json.loads(response.body)
    except ValueError:
        return None


def rate_limited(fault: Fault) -> web.Response:
    is_global = fault.kind == "global_rate_limit"
    body = {
        "message": "You are being rate limited.",
        "retry_after": round(fault.retry_after, 3),
        "global": is_global,
    }
    if is_global:
        body["code"] = 0
    headers = {
        "Retry-After": str(math.ceil(fault.retry_after)),
        "X-RateLimit-Scope": "global" if is_global else fault.scope,
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    else:
        headers |= {
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(str(fault.route).encode()).hexdigest()[:16],
        }
    response = json_response(body, 429)
    response.headers.update(headers)
    return response


def fault_response(fault: Fault) -> web.Response:
    if fault.kind in ("rate_limit", "global_rate_limit"):
        return rate_limited(fault)
    if fault.kind == "server_error":
        reason = SERVER_ERRORS[fault.status]
        return json_response({"message": f"{fault.status}: {reason}", "code": 0}, fault.status)
    error = fault.error()
    return json_response(error.body(), error.status)
