"""Runs on Temporal: the engine's decision code as a workflow, every attempt an activity.

    skillweave worker [--temporal-address HOST:PORT] [--namespace NS] [--task-queue Q]   # any number, anywhere
    skillweave run SPEC --backend temporal [--no-wait]                                   # start, and follow
    skillweave approve RUN STEP --backend temporal · resume · runs · runs show           # read and signal Temporal

Modules (each says more): `config` (where Temporal is: flags > env > defaults),
`messages` (what crosses Temporal), `backend` (the seam's Temporal side, in the
workflow), `workflow` (the workflow), `activities` (what workers do), `worker`,
`client` (start, follow, approve, read, resume), `blobs` (payloads too big for
Temporal). Importing this package imports nothing of `temporalio`: `config`
does not need it, so a local run never loads the SDK (the `temporal` extra).
"""
