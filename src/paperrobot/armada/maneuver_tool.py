"""The manoeuvre tool: where a ship's centre and heading end after a course (speed and clicks per joint), and the
tool's joints as laid, for front ends to draw a course.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

from .data import Tool, geometry
from .geometry import Pose
from .polygons import Point


def maneuver(x: float, y: float, a: float, length: float, speed: int, clicks: Sequence[int],
             tool: Tool | None = None) -> Pose:
    """Where a ship's centre and heading end after a maneuver (clicks per joint, + = to port/left).

    Model (reference/armada.md (b), AlphArmada): the tool starts at the front of the base; each speed
    adds a long segment on the current heading and a short one after the joint's yaw; the ship's
    front ends at the last joint. The tool's sideways offset is ignored (docs/armada.md 'Movement').
    """
    t = tool or geometry().tool
    fx, fy = x + math.cos(a) * length / 2, y + math.sin(a) * length / 2
    h = a
    step = math.radians(t.click_degrees)
    for joint in range(speed):
        fx += math.cos(h) * t.long_segment
        fy += math.sin(h) * t.long_segment
        h += clicks[joint] * step
        fx += math.cos(h) * t.short_segment
        fy += math.sin(h) * t.short_segment
    if speed == 0:
        return x, y, a
    # the front has moved one segment length per speed; the centre sits half a base behind it
    return fx - math.cos(h) * length / 2, fy - math.sin(h) * length / 2, h


def tool_path(x: float, y: float, a: float, length: float, speed: int, clicks: Sequence[int],
              tool: Tool | None = None) -> list[Point]:
    """The manoeuvre tool's joints as ``maneuver`` lays it: the base's front, then the front after each segment
    (long, then short after the joint's yaw), for front ends to draw a course (a picture; ``maneuver`` decides)."""
    t = tool or geometry().tool
    fx, fy = x + math.cos(a) * length / 2, y + math.sin(a) * length / 2
    h, step = a, math.radians(t.click_degrees)
    out = [(fx, fy)]
    for joint in range(speed):
        fx, fy = fx + math.cos(h) * t.long_segment, fy + math.sin(h) * t.long_segment
        out.append((fx, fy))
        h += clicks[joint] * step
        fx, fy = fx + math.cos(h) * t.short_segment, fy + math.sin(h) * t.short_segment
        out.append((fx, fy))
    return out


def maneuvers(x: float, y: float, a: float, length: float, moves: Sequence[tuple[int, tuple[int, ...]]],
              tool: Tool | None = None) -> list[Pose]:
    """[maneuver(x, y, a, length, speed, clicks, tool) for speed, clicks in moves], with the same arithmetic: the
    front's place and heading after each joint are worked out once for the joints a course shares with the course
    before it (courses come by speed and in product order: neighbours share all but their last joints), with no
    prefix of clicks built or hashed."""
    t = tool or geometry().tool
    long_s, short_s = t.long_segment, t.short_segment
    step = math.radians(t.click_degrees)
    # the front's x, y and heading after each joint of the last course worked out (index 0: before the first), the
    # first ``done`` + 1 of them valid, and that course's clicks (lists as long as the longest course: no list is cut)
    most = 0  # the longest course (a loop: compiled, max() with a default is a generic call)
    for speed, _ in moves:
        if speed > most:
            most = speed
    fxs = [x + math.cos(a) * length / 2] * (most + 1)
    fys = [y + math.sin(a) * length / 2] * (most + 1)
    hs = [a] * (most + 1)
    done = 0
    last: tuple[int, ...] = ()
    out: list[Pose] = []
    for speed, clicks in moves:
        if speed == 0:
            out.append((x, y, a))
            continue
        j, shared = 0, min(done, speed)
        while j < shared and clicks[j] == last[j]:
            j += 1
        fx, fy, h = fxs[j], fys[j], hs[j]
        ch, sh = math.cos(h), math.sin(h)  # of the heading h: worked out once per heading (the same values)
        for joint in range(j, speed):
            fx += ch * long_s
            fy += sh * long_s
            h += clicks[joint] * step
            ch, sh = math.cos(h), math.sin(h)
            fx += ch * short_s
            fy += sh * short_s
            fxs[joint + 1], fys[joint + 1], hs[joint + 1] = fx, fy, h
        done, last = speed, clicks
        out.append((fx - ch * length / 2, fy - sh * length / 2, h))
    return out
