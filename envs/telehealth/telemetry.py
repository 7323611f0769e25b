"""Telehealth tools over remote-monitoring devices and their uploads (the published tools; conventions
in tools.py)."""

from __future__ import annotations

import json
from typing import Annotated

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field
from sqlalchemy import func

from taue.envs.runtime.database import Store
from taue.envs.telehealth.models import (
    TelemetryDevice,
    TelemetryUpload,
)
from taue.envs.telehealth.tool_support import (
    Day,
    DeviceId,
    Limit,
    reader,
)

# ------------------------------------------------------------------------------------ telemetry


@reader
async def list_telemetry_devices(
    db: Store,
    status_filter: Annotated[
        str | None,
        Field(
            description="Only devices with this status: available, inspection, deployed, shipped, "
            "maintenance or missing_overdue."
        ),
    ] = None,
    limit: Limit = None,
) -> str:
    """List remote-monitoring devices in the inventory (id, status, last audit, notes), by device id."""
    if db.count(TelemetryDevice) == 0:
        return "Telemetry inventory is empty."
    where = [func.lower(TelemetryDevice.status) == status_filter.lower()] if status_filter else []
    devices = sorted(db.scan(TelemetryDevice, *where), key=lambda d: d.device_id)
    if not devices:
        return f"No telemetry devices with status {status_filter}."
    if limit is not None and limit > 0:
        devices = devices[:limit]
    lines = ["Telemetry devices:"]
    lines += [
        f"{d.device_id} | status={d.status} | last_audit={d.last_audit} | notes={d.notes}" for d in devices
    ]
    return "\n".join(lines)


@reader
async def list_telemetry_uploads(
    db: Store,
    device_id: DeviceId,
    start_date: Annotated[str | None, Field(description="First day to include, 'YYYY-MM-DD'.")] = None,
    end_date: Annotated[str | None, Field(description="Last day to include, 'YYYY-MM-DD'.")] = None,
    limit: Limit = None,
) -> str:
    """List a device's daily data uploads (usage hours, sync time, event, alerts) in date order,
    optionally within a date window. Returns a JSON array."""
    where = [TelemetryUpload.device_id == device_id]
    if start_date:
        where.append(TelemetryUpload.date >= start_date)
    if end_date:
        where.append(TelemetryUpload.date <= end_date)
    uploads = sorted(db.scan(TelemetryUpload, *where), key=lambda u: u.date)
    if limit is not None and limit > 0:
        uploads = uploads[:limit]
    if not uploads:
        return f"No telemetry uploads found for device {device_id} in the specified window."
    return json.dumps([upload.to_record() for upload in uploads])


@reader
async def get_telemetry_upload(db: Store, device_id: DeviceId, date: Day) -> str:
    """Get one day's upload of a device (usage hours, sync time, event, alerts) as a JSON object."""
    found = db.scan(TelemetryUpload, TelemetryUpload.device_id == device_id, TelemetryUpload.date == date)
    if not found:
        raise ToolError(f"No telemetry upload found for device {device_id} on {date}.")
    return json.dumps(found[0].to_record())
