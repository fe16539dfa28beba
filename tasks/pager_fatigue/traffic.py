"""Monitoring-event traffic for the pager_fatigue scenario (Halyard Payments alert router).

dev()      -> two weeks of February history written into the workspace (events, pager log,
              change-calendar export, incident register).
held_out() -> four weeks (16 Mar - 12 Apr 2026, across the BST change) of shift batches plus the
              hidden truth (which events belong to which real incident), in memory only.
shadow()   -> one shift of shadow traffic for a trial day (day n: the shift starting 09:00 on 2 Mar + (n - 1)).

Everything is driven by a private random.Random(seed); no clock, no global RNG.
"""
from __future__ import annotations

import csv
import io
import json
import pathlib
import random
from datetime import date, datetime, timedelta, timezone

from fdegym_env.tasklib.timeutil import local, parse_iso, utc

UTC = timezone.utc

DEV_SEED = 1101
DEV_START = date(2026, 2, 16)
DEV_DAYS = 14
HELD_START = date(2026, 3, 16)
HELD_DAYS = 28
SHADOW_START = date(2026, 3, 2)   # trial n is the shift from 09:00 on 2 Mar + (n - 1) to 09:00 the next day: a trial
                                  # takes a day of customer time, so the shift is over when its report arrives
# England & Wales bank holidays: Settlement Ops run no settlement or clearing on them (no scheme
# settlement day). Good Friday and Easter Monday fall inside the held-out weeks.
BANK_HOLIDAYS = {date(2026, 1, 1), date(2026, 4, 3), date(2026, 4, 6), date(2026, 5, 4), date(2026, 5, 25),
                 date(2026, 8, 31), date(2026, 12, 25), date(2026, 12, 28)}
# certscan 3 (value null, days left in a label and the summary) took over the internal certs first,
# in the last week of February, and every cert from 2 March.
CERTSCAN3_PARTIAL_FROM = date(2026, 2, 23)
CERTSCAN3_ALL_FROM = date(2026, 3, 2)

# ----------------------------------------------------------------------------- time helpers


def london_offset_h(dt_utc: datetime) -> int:
    return int(local(dt_utc).utcoffset().total_seconds() // 3600)


def to_london(dt_utc: datetime) -> datetime:
    return local(dt_utc).replace(tzinfo=None)


def local_to_utc(naive: datetime) -> datetime:
    for off in (1, 0):
        cand = (naive - timedelta(hours=off)).replace(tzinfo=UTC)
        if london_offset_h(cand) == off:
            return cand
    return (naive - timedelta(hours=1)).replace(tzinfo=UTC)  # inside the spring-forward gap


def _hm(s: str) -> float:
    h, m = s.split(":")
    return int(h) + int(m) / 60.0


def moved_on(params: dict):
    """Shift day of the first settlement run on the new slot, or None when the schedule did not move."""
    before = params.get("batch_windows_before")
    if not before or [list(w) for w in before] == [list(w) for w in params["batch_windows"]]:
        return None
    return date(2026, 3, int(str(params.get("batch_moved_on") or "9 March").split()[0]))


def windows_on(params: dict, shift_day: date) -> list:
    """Control-M's (settlement, clearing) windows for the runs of the night after ``shift_day``."""
    first = moved_on(params)
    return params["batch_windows_before"] if first and shift_day < first else params["batch_windows"]


def window_local(shift_day: date, a: str, b: str):
    """UTC bounds of the batch window [a, b) (UK local time) of the night after ``shift_day`` (or its evening)."""
    ha, hb = _hm(a), _hm(b)
    ha = ha - 9 if ha >= 9 else ha + 15
    hb = hb - 9 if hb >= 9 else hb + 15
    if hb <= ha:
        hb += 24
    naive0 = datetime.combine(shift_day, datetime.min.time()) + timedelta(hours=9)
    return local_to_utc(naive0 + timedelta(hours=ha)), local_to_utc(naive0 + timedelta(hours=hb))


def batch_runs(params: dict, shift_day: date) -> list:
    """[(job, start, end)] (UTC) that Control-M runs on the night after ``shift_day``; none on a bank holiday."""
    out = []
    for job, (a, b) in zip(("settlement batch", "clearing ingest"), windows_on(params, shift_day)):
        w0, w1 = window_local(shift_day, a, b)
        if to_london(w0).date() not in BANK_HOLIDAYS:
            out.append((job, w0, w1))
    return out


# ----------------------------------------------------------------------------- estate

LB_MEMBERS = [
    "lbe-man-02/merchant-portal/10.40.7.21:8443",
    "lbe-man-02/merchant-portal/10.40.7.22:8443",
    "lbe-man-01/api-gw/10.40.3.11:443",
    "lbe-man-03/tokenvault/10.40.9.5:9443",
    "lbe-man-01/api-gw/10.40.3.14:443",
    "lbe-man-03/3ds-acs/10.40.12.8:8443",
    "lbe-man-02/merchant-portal/10.40.7.25:8443",
    "lbe-man-01/api-gw/10.40.3.17:443",
    "lbe-man-03/tokenvault/10.40.9.7:9443",
    "lbe-man-03/3ds-acs/10.40.12.9:8443",
    "lbe-man-02/reporting-ui/10.40.8.31:8080",
    "lbe-man-01/webhooks/10.40.4.2:443",
    "lbe-man-02/reporting-ui/10.40.8.33:8080",
    "lbe-man-01/webhooks/10.40.4.6:443",
]

MAINT_CIS = {
    "pg-reporting": {"hosts": ["pg-reporting-01", "pg-reporting-02"],
                     "alerts": ["ServiceDown", "PgConnectionsRefused", "HostUnreachable", "PgReplicaNotStreaming", "NodeRebooted"],
                     "group": "DBA", "what": ["minor version upgrade 15.6 -> 15.8", "vacuum full + reindex on report_txn",
                                             "storage expansion (SAN LUN grow)"]},
    "kafka-core": {"hosts": ["kafka-core-b1", "kafka-core-b2", "kafka-core-b3", "kafka-core-b4", "kafka-core-b5"],
                   "alerts": ["KafkaBrokerOffline", "KafkaUnderReplicatedPartitions", "HostUnreachable", "KafkaControllerElection", "NodeRebooted"],
                   "group": "Platform", "what": ["rolling broker restart (JVM patch)", "broker OS patching",
                                                 "rack-awareness config rollout"]},
    "merchant-portal": {"hosts": ["mp-web-01", "mp-web-02", "mp-web-03", "mp-web-04"],
                        "alerts": ["ServiceDown", "HttpProbeFailed", "HostUnreachable", "TomcatThreadsExhausted", "NodeRebooted"],
                        "group": "Merchant Apps", "what": ["release 24.3.0", "release 24.3.1 hotfix",
                                                           "TLS cipher suite change"]},
    "fraud-scoring": {"hosts": ["fraud-score-01", "fraud-score-02", "fraud-score-03"],
                      "alerts": ["ServiceDown", "ModelLatencyHigh", "HostUnreachable", "FeatureStoreTimeout", "NodeRebooted"],
                      "group": "Risk Engineering", "what": ["model rollout fs-2026.03", "feature store migration"]},
    "settlement-sftp": {"hosts": ["sftp-set-01", "sftp-set-02"],
                        "alerts": ["ServiceDown", "HostUnreachable", "SftpLoginFailures", "NodeRebooted"],
                        "group": "Settlement Ops", "what": ["OpenSSH upgrade", "host key rotation"]},
    "token-vault": {"hosts": ["tv-01", "tv-02", "tv-03"],
                    "alerts": ["ServiceDown", "HostUnreachable", "TokenVaultReplicationBroken", "NodeRebooted"],
                    "group": "Security Eng", "what": ["HSM client library upgrade", "vault node OS patching"]},
}
CARD_AUTH_CI = {"hosts": ["auth-gw-01", "auth-gw-02", "auth-gw-03", "auth-gw-04", "auth-gw-05", "auth-gw-06"],
                "alerts": ["HostUnreachable", "PodRestartLoop", "NodeRebooted"],
                "group": "Card Auth", "what": ["auth-gw rolling deploy 7.14", "auth-gw rolling deploy 7.15 (ISO8583 field 55 fix)"]}

# Certificates the nightly scan watches. Each has one notAfter; the scan (00:05 UTC) reports every cert
# with 30 days or less left, so a cert's days left fall by one a night until Security Eng renew it
# (SECENG board, a weekday, between 10 and 21 days left): then the new notAfter is a year out and the
# cert drops out of the scan. A cert_real incident is a renewal nobody picked up: the first night it
# shows 7 days it is real, and it is renewed (emergency) that day.
CERT_RENEW_DAYS = (10, 21)
CERT_REAL_DAYS = 7
# OPS-1209 quotes vault-int's first certscan 3 event (23 Feb): 12d left, notAfter 2026-03-07T04:00:00Z.
CERT_ANCHORS_DEV = {"vault-int.halyard.local": datetime(2026, 3, 7, 4, 0, 0, tzinfo=timezone.utc)}
CERTS = ["api.halyardpay.co.uk", "portal.halyardpay.co.uk", "hooks.halyardpay.co.uk", "sftp.settlement.halyardpay.net",
         "acs.3ds.halyardpay.co.uk", "vault-int.halyard.local", "grafana.halyard.local", "kafka-core.halyard.local"]
APSE_CHECKS = ["portal-login", "portal-reports", "api-auth-ping", "api-refund-ping", "webhook-echo", "tokenise-test-card",
               "3ds-challenge-page", "status-page", "docs-site"]
MISC_WARN = [("JvmGcPauseHigh", "fraud-scoring", "fraud-score-0{n}", 0.8, 1.4, "s"),
             ("PodRestartCount", "api-gw", "apigw-edge-{n}", 3, 9, "restarts/h"),
             ("DiskUsageHigh", "logging", "log-agg-0{n}", 80, 91, "%"),
             ("QueueDepthHigh", "webhooks", "webhook-dispatch-0{n}", 5000, 19000, "msgs"),
             ("ClockSkewWarning", "hsm", "hsm-proxy-0{n}", 0.2, 0.9, "s"),
             ("BackupJobSlow", "pg-ledger", "pg-ledger-backup", 1.1, 2.5, "x baseline")]


def _contract(params: dict) -> list:
    return list(params.get("contract_alerts") or [])


# ----------------------------------------------------------------------------- generator


class _Gen:
    def __init__(self, params: dict, start: date, ndays: int, seed: int, phase: str):
        self.p = params
        self.rng = random.Random(seed)
        self.start = start
        self.ndays = ndays
        self.phase = phase
        self.events: list = []       # (dt_utc, ev dict, iid or None, key)
        self.incidents: dict = {}    # iid -> meta
        self.windows: list = []      # change records (internal)
        self.busy: dict = {}         # key -> [(t0, t1)] of real incidents
        self.n = 0
        self.keep_ids: set = set()   # noise that may share a key with a real incident (a flap before a member dies)
        self.gen_counter = self.rng.randint(12000, 29000)
        # certificates: their own generator (the main stream stays as it was), dropped renewals, renewals
        self.cert_rng = random.Random(seed * 7919 + 17)
        self.cert_drops: dict = {}   # cert -> (shift day, scan time, iid) of a renewal nobody picked up
        self.cert_renewals: list = []

    # -- basics
    def day_start(self, d: int) -> datetime:
        return local_to_utc(datetime.combine(self.start + timedelta(days=d), datetime.min.time()) + timedelta(hours=9))

    def at(self, d: int, h: float) -> datetime:
        """h = local hours after 09:00 of shift day d (e.g. 16.5 = 01:30 the next morning)."""
        naive = datetime.combine(self.start + timedelta(days=d), datetime.min.time()) + timedelta(hours=9 + h)
        return local_to_utc(naive).replace(microsecond=0) + timedelta(seconds=self.rng.randint(0, 59))

    def _fmt(self, dt: datetime, source: str) -> str:
        r = self.rng.random()
        if source == "pgwatch":
            off = london_offset_h(dt)
            loc = dt + timedelta(hours=off)
            return loc.strftime("%Y-%m-%dT%H:%M:%S") + ("+01:00" if off else "+00:00")
        if source == "lb-healthd":
            return dt.strftime("%Y-%m-%dT%H:%M:%S+00:00")
        if source == "synthetics":
            return dt.strftime("%Y-%m-%d %H:%M:%S+00:00")
        if r < 0.3:
            return dt.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % self.rng.randint(0, 999)
        return dt.strftime("%Y-%m-%dT%H:%M:%SZ")

    def _id(self, dt: datetime, source: str) -> str:
        self.n += 1
        r = self.rng
        if source == "lb-healthd":
            return "lbh-%s-%06d" % (dt.strftime("%Y%m%d"), self.n)
        if source == "pgwatch":
            return "pgw/%04d/%d" % (r.randint(1000, 9999), self.n)
        if source == "synthetics":
            return "syn_%s%d" % ("".join(r.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(8)), self.n)
        if source == "certscan":
            return "certscan:%s:%d" % (dt.strftime("%Y%m%d"), self.n)
        return "fp-%012x%04x" % (r.getrandbits(48), self.n % 65536)

    def add(self, dt, source, alert, service, instance, severity, value, threshold, summary, iid=None, **labels):
        ev = {"id": self._id(dt, source), "ts": self._fmt(dt, source), "source": source, "alert": alert,
              "service": service, "instance": instance, "severity": severity,
              "value": value, "threshold": threshold, "summary": summary}
        if labels:
            ev["labels"] = labels
        base_inst = instance.split("#g")[0] if isinstance(instance, str) else instance
        self.events.append((dt, ev, iid, (alert, service, base_inst)))
        return ev

    @staticmethod
    def _certscan3(t, cert) -> bool:
        d = to_london(t).date()
        return d >= CERTSCAN3_ALL_FROM or (d >= CERTSCAN3_PARTIAL_FROM and cert.endswith(".halyard.local"))

    def cert_event(self, t, cert, not_after, iid=None):
        """One scan result: days left = whole days from the scan to the cert's notAfter. certscan 2 puts
        them in value; certscan 3 (internal certs from 23 Feb, all from 2 March) sends value null and the
        days in labels.days_left and the summary, with the notAfter."""
        days_left = int((not_after - t).total_seconds() // 86400)
        if not self._certscan3(t, cert):
            return self.add(t, "certscan", "CertExpirySoon", "pki", "cert:" + cert, "critical", days_left, 30,
                            "certificate %s expires in %d days (issuer: Sectigo RSA DV)" % (cert, days_left), iid)
        na = not_after.strftime("%Y-%m-%dT%H:%M:%SZ")
        issuer = "Halyard Internal CA G2" if cert.endswith(".halyard.local") else "Sectigo RSA DV"
        return self.add(t, "certscan", "CertExpirySoon", "pki", "cert:" + cert, "critical", None, None,
                        "%s: %dd left (notAfter %s, %s)" % (cert, days_left, na, issuer), iid,
                        days_left=str(days_left), not_after=na, scanner="certscan/3.0.2")

    def _burn_cert_event(self, t, cert):
        """The draws the old per-night random cert event made (notAfter hours, timestamp format), so
        that every other event keeps its place in the random stream."""
        r = self.rng
        if self._certscan3(t, cert):
            r.randint(1, 20)
        self.n += 1
        if r.random() < 0.3:
            r.randint(0, 999)

    def scan_time(self, d: int) -> datetime:
        """00:05 UTC on the night of shift day d."""
        day0 = self.day_start(d)
        return datetime.combine((day0 + timedelta(hours=16)).date(), datetime.min.time(), UTC) + timedelta(minutes=5)

    def cert_scans(self):
        """Every night's certscan events from one notAfter per cert (see CERTS), emitted after the
        rest of the traffic with the cert generator."""
        cr = self.cert_rng
        main, self.rng = self.rng, cr
        try:
            for c in CERTS:
                drop = self.cert_drops.get(c)
                tod = timedelta(hours=cr.randint(1, 22), minutes=cr.randint(0, 59), seconds=cr.randint(0, 59))
                renew_at = cr.randint(*CERT_RENEW_DAYS)
                if drop:
                    d_r, scan_r, _iid = drop
                    not_after = datetime.combine(scan_r.date(), datetime.min.time(), UTC) + timedelta(days=CERT_REAL_DAYS) + tod
                elif self.phase == "dev" and c in CERT_ANCHORS_DEV:
                    not_after = CERT_ANCHORS_DEV[c]
                    renew_at = min(renew_at, 11)   # still in the scan on 23 Feb at 12 days
                else:
                    first = self.scan_time(0).date()
                    x0 = cr.randint(renew_at + 1, 30 + max(8, int(self.ndays * 0.75)))
                    not_after = datetime.combine(first, datetime.min.time(), UTC) + timedelta(days=x0) + tod
                renewed = False
                for d in range(self.ndays):
                    scan = self.scan_time(d)
                    left = int((not_after - scan).total_seconds() // 86400)
                    if renewed or left > 30:
                        continue
                    if drop and d == drop[0]:
                        self.cert_event(drop[1], c, not_after, drop[2])
                    else:
                        self.cert_event(scan + timedelta(seconds=cr.randint(0, 50)), c, not_after)
                    # Security Eng renew on a weekday once the cert is inside their window; a dropped
                    # renewal waits for the page
                    due = (drop and d == drop[0]) or (not drop and left <= renew_at)
                    if due and (drop or scan.weekday() < 5):
                        when = scan + timedelta(hours=cr.randint(9, 15), minutes=cr.randint(0, 59))
                        life = 365 if c.endswith(".halyard.local") else 397
                        if when >= self.day_start(self.ndays):
                            # the last night's scan: Security Eng pick it up after 09:00, which is after
                            # the data ends (the start clock), so on the board it is not done yet
                            self.cert_renewals.append({"cert": c, "renewed": None, "old": not_after, "new": None,
                                                       "iid": drop[2] if drop else None, "left": left})
                        else:
                            self.cert_renewals.append({"cert": c, "renewed": when, "old": not_after,
                                                       "new": (when + timedelta(days=life)).replace(second=0, microsecond=0),
                                                       "iid": drop[2] if drop else None, "left": left})
                        renewed = True
                if not renewed:
                    self.cert_renewals.append({"cert": c, "renewed": None, "old": not_after, "new": None,
                                               "iid": None, "left": int((not_after - self.scan_time(self.ndays - 1)).total_seconds() // 86400)})
        finally:
            self.rng = main

    def lb_instance(self, member: str) -> str:
        if self.p.get("lb_generation_suffix"):
            self.gen_counter += self.rng.randint(1, 3)
            return "%s#g%d" % (member, self.gen_counter)
        return member

    def incident(self, kind, sev, alert, service, instance, t0, t1, summary):
        iid = "R%03d" % (len(self.incidents) + 1)
        self.incidents[iid] = {"kind": kind, "sev": sev, "alert": alert, "service": service,
                               "instance": instance, "start": None, "summary": summary,
                               "contract": alert in _contract(self.p)}
        self.busy.setdefault((alert, service, instance), []).append((t0, t1))
        return iid

    def window_local(self, d: int, a: str, b: str):
        return window_local(self.start + timedelta(days=d), a, b)

    def batch_windows(self, d: int) -> list:
        """the windows of shift day d's night: February's slot until the settlement run moved"""
        return windows_on(self.p, self.start + timedelta(days=d))

    # -- noise families
    def lb_flaps(self, d: int):
        r = self.rng
        pool = LB_MEMBERS[:5] if self.phase == "dev" else (LB_MEMBERS[4:] if self.phase == "held" else LB_MEMBERS)
        nights = 1 + (r.random() < 0.35)
        if r.random() < float(self.p.get("lb_flap_p", 0.85)):
            for _ in range(nights):
                member = r.choice(pool)
                t = self.at(d, r.uniform(12.0, 19.0))
                end = t + timedelta(minutes=r.randint(50, 160))
                self._flap(member, t, end)
        if r.random() < 0.3:
            member = r.choice(pool)
            t = self.at(d, r.uniform(0.5, 10.0))
            self._flap(member, t, t + timedelta(minutes=r.randint(25, 80)))

    def _flap(self, member, t, end):
        r = self.rng
        pool = member.split("/")[1]
        ip = member.split("/")[-1]
        while t < end:
            fails = r.randint(1, 3)
            why = r.choice(["HTTP 503 in %dms" % r.randint(3, 900), "timeout 2000ms", "timeout 2000ms",
                            "HTTP 502 in %dms" % r.randint(3, 400), "connect timeout", "TLS handshake reset"])
            self.add(t, "lb-healthd", "LBHealthCheckFailed", "lb-edge", self.lb_instance(member), "critical", fails, 1,
                     "health check failed %d/3 on %s (pool %s): %s at %s" % (fails, ip, pool, why, f"{t:%H:%M:%S}"),
                     pool=pool)
            down = r.randint(20, 100)
            t2 = t + timedelta(seconds=down)
            self.add(t2, "lb-healthd", "LBHealthCheckRecovered", "lb-edge", self.lb_instance(member), "info", None, None,
                     "%s back in rotation (rise 1/1), out %ds, GET /healthz %d in %dms" % (ip, down, 200, r.randint(2, 60)),
                     pool=pool)
            t = t + timedelta(minutes=r.randint(3, 8), seconds=r.randint(0, 59))

    def replication_lag_batches(self, d: int):
        r = self.rng
        for replica, p in (("pg-ledger-replica-02", 0.85), ("pg-ledger-replica-01", 0.3)):
            for a, b in self.batch_windows(d):
                if r.random() > p:
                    continue
                w0, w1 = self.window_local(d, a, b)
                if to_london(w0).date() in BANK_HOLIDAYS:
                    continue  # no settlement / clearing run on a bank holiday
                # the batch runs in phases; lag spikes per phase and drains in between
                t = w0 + timedelta(minutes=r.randint(4, 15), seconds=r.randint(0, 59))
                stop = w1 - timedelta(minutes=r.randint(0, 8))
                while t < stop:
                    burst_end = min(stop, t + timedelta(minutes=r.randint(12, 35)))
                    while t < burst_end:
                        v = round(r.choice([r.uniform(31, 44), r.uniform(45, 400), r.uniform(200, 900)]), 1)
                        self.add(t, "pgwatch", "PgReplicationLagHigh", "pg-ledger", replica,
                                 "warning" if v < 120 else "critical", v, 30,
                                 "replay lag %.0fs on %s (wal receiver streaming)" % (v, replica))
                        t += timedelta(minutes=10, seconds=r.randint(-20, 20))
                    t = burst_end + timedelta(minutes=r.randint(33, 50))

    def hand_silenced(self, d: int):
        r = self.rng
        # nightly cert scan at 00:05 UTC: the events come from cert_scans(); these are the draws the
        # old random sample made, kept so the rest of the traffic is unchanged
        scan = self.scan_time(d)
        for c in r.sample(CERTS, r.randint(3, 5)):
            r.randint(8, 29)
            self._burn_cert_event(scan + timedelta(seconds=r.randint(0, 50)), c)
        # broken Sydney synthetic probe
        for chk in r.sample(APSE_CHECKS, r.randint(2, 6)):
            t = self.at(d, r.uniform(13.5, 20.5))
            self.add(t, "synthetics", "SyntheticCheckFailed", "synthetics", "apse2-probe-3/" + chk, "critical", 1, 1,
                     "check %s failed from apse2-probe-3: connect timeout after 10000ms" % chk)
        if r.random() < 0.4:
            chk = r.choice(APSE_CHECKS)
            self.add(self.at(d, r.uniform(1, 11)), "synthetics", "SyntheticCheckFailed", "synthetics",
                     "apse2-probe-3/" + chk, "critical", 1, 1, "check %s failed from apse2-probe-3: TLS handshake timeout" % chk)
        # analytics ETL consumer lag, nightly
        t = self.at(d, r.uniform(16.8, 17.3))
        end = t + timedelta(minutes=r.randint(80, 140))
        while t < end:
            v = r.randint(60000, 600000)
            self.add(t, "prometheus", "KafkaConsumerLag", "analytics-etl", "analytics-etl@kafka-core", "critical", v, 50000,
                     "consumer group analytics-etl lag %d msgs on topic txn.settled" % v, group="analytics-etl")
            t += timedelta(minutes=20, seconds=r.randint(-30, 30))

    def blips(self, d: int):
        r = self.rng
        for _ in range(r.randint(1, 3)):
            h = r.choice([r.uniform(3.0, 5.0), r.uniform(8.5, 12.5), r.uniform(0.5, 12.5)])
            if r.random() < 0.6:
                v = round(800 * r.uniform(1.01, 1.2))
                self.add(self.at(d, h), "prometheus", "CardAuthLatencyP99High", "card-auth", "auth-gw-pool", "warning", v, 800,
                         "card auth p99 %dms over 5m (threshold 800ms)" % v)
            else:
                v = round(2.0 * r.uniform(1.01, 1.2), 2)
                self.add(self.at(d, h), "prometheus", "CardAuthErrorRate", "card-auth", "auth-gw-pool", "warning", v, 2.0,
                         "card auth error rate %.2f%% over 5m (declines excluded)" % v)
        for _ in range(r.randint(0, 2)):
            v = round(r.uniform(5.2, 7.8), 1)
            self.add(self.at(d, r.uniform(0, 14)), "prometheus", "ThreeDSAcsErrorRate", "3ds-acs", "acs-pool", "warning", v, 5.0,
                     "3DS ACS challenge error rate %.1f%% (threshold 5%%)" % v)

    def misc(self, d: int):
        r = self.rng
        lo_n, hi_n = self.p.get("misc_per_day") or (8, 16)
        for _ in range(r.randint(int(lo_n), int(hi_n))):
            alert, svc, inst, lo, hi, unit = r.choice(MISC_WARN)
            v = round(r.uniform(lo, hi), 2)
            self.add(self.at(d, r.uniform(0, 23.9)), "prometheus", alert, svc, inst.format(n=r.randint(1, 4)), "warning", v, lo,
                     "%s %s %s" % (alert, v, unit))
        for _ in range(r.randint(2, 5)):
            self.add(self.at(d, r.uniform(0, 23.9)), "prometheus", "Watchdog", "monitoring", "prom-man-0%d" % r.randint(1, 2),
                     "info", None, None, "alerting pipeline heartbeat")

    def maintenance(self, d: int, forced: list):
        r = self.rng
        plans = list(forced)
        if r.random() < 0.9:
            plans.append(("real", r.choice(list(MAINT_CIS))))
        if r.random() < 0.5:
            plans.append(("real", r.choice(list(MAINT_CIS))))
        if r.random() < 0.2:
            plans.append(("phantom", r.choice(list(MAINT_CIS))))
        used = set()
        for kind, ci in plans:
            if ci in used:
                continue
            used.add(ci)
            spec = CARD_AUTH_CI if ci == "card-auth" else MAINT_CIS[ci]
            s = self.at(d, r.choice([12.0, 12.5, 13.0, 13.5, 14.0])).replace(second=0)
            e = s + timedelta(hours=r.choice([2.5, 3, 3.5, 4]))
            if any(w["ci"] == ci and w["start"] < e + timedelta(hours=1) and s < w["end"] + timedelta(hours=1)
                   for w in self.windows):
                continue
            rec = {"ci": ci, "start": s, "end": e, "real": kind == "real", "group": spec["group"],
                   "what": r.choice(spec["what"])}
            self.windows.append(rec)
            if kind != "real":
                continue
            span = int((e - s).total_seconds() // 60)
            for h in spec["hosts"]:
                if r.random() < 0.15:
                    continue
                # a host being patched goes down once or twice (reboot, then restart after config)
                t = s + timedelta(minutes=r.randint(3, max(4, span // 3)))
                for _cycle in range(r.choice([1, 2, 2, 3])):
                    if t >= e - timedelta(minutes=5):
                        break
                    for a in r.sample(spec["alerts"], min(len(spec["alerts"]), r.randint(2, 4))):
                        sev = "warning" if a in ("PodRestartLoop", "NodeRebooted") and r.random() < 0.3 else "critical"
                        self.add(t + timedelta(seconds=r.randint(0, 300)), "prometheus", a, ci, h, sev, 1, 1,
                                 "%s on %s" % (a, h))
                    t += timedelta(minutes=r.randint(36, 55))
            svc_alert = {"pg-reporting": "PgConnectionsRefused", "kafka-core": "KafkaUnderReplicatedPartitions",
                         "merchant-portal": "HttpProbeFailed", "fraud-scoring": "ModelLatencyHigh",
                         "settlement-sftp": "ServiceDown", "token-vault": "TokenVaultReplicationBroken"}.get(ci)
            if svc_alert:
                t = s + timedelta(minutes=r.randint(5, 30))
                self.add(t, "prometheus", svc_alert, ci, ci + "-svc", "critical", 1, 1, "%s (%s)" % (svc_alert, ci))
            if ci == "card-auth":
                # rolling deploy: latency wobbles while pods drain. Contract alerts fire anyway.
                t = s + timedelta(minutes=r.randint(10, 25))
                for _ in range(r.randint(2, 3)):
                    v = round(800 * r.uniform(1.02, 1.18))
                    self.add(t, "prometheus", "CardAuthLatencyP99High", "card-auth", "auth-gw-pool", "warning", v, 800,
                             "card auth p99 %dms over 5m (threshold 800ms)" % v)
                    t += timedelta(minutes=r.randint(35, 50))

    # -- real incidents
    def burst(self, kind, sev, alert, service, instance, t0, n, minutes, summary, step_s, threshold, value,
              source="prometheus", **labels):
        """A real incident of ``n`` events about ``step_s`` apart from ``t0``; ``value(i)`` -> (value,
        severity, event summary). lb-healthd labels the member with its generation where it does."""
        iid = self.incident(kind, sev, alert, service, instance, t0, t0 + timedelta(minutes=minutes), summary)
        t = t0
        for i in range(n):
            v, severity, text = value(i)
            inst = self.lb_instance(instance) if source == "lb-healthd" else instance
            self.add(t, source, alert, service, inst, severity, v, threshold, text, iid, **labels)
            t += timedelta(seconds=step_s + self.rng.randint(-10, 10))

    def real(self, kind: str, d: int, h: float, extra=None):
        r = self.rng
        t0 = self.at(d, h)
        if kind == "card_latency":
            n, k = r.randint(14, 35), r.randint(7, 11)

            def f(i):
                v = round(800 * (r.uniform(1.04, 1.4) if i < k else r.uniform(1.6, 4.5)))
                return v, "warning" if v < 1600 else "critical", "card auth p99 %dms over 5m (threshold 800ms)" % v
            self.burst(kind, "sev1", "CardAuthLatencyP99High", "card-auth", "auth-gw-pool", t0, n, n,
                       "card auth p99 degradation", 60, 800, f)
        elif kind == "card_errors":
            n, k = r.randint(12, 30), r.randint(7, 10)

            def f(i):
                v = round(2.0 * (r.uniform(1.04, 1.42) if i < k else r.uniform(1.8, 6)), 2)
                return v, "warning" if v < 5 else "critical", "card auth error rate %.2f%% over 5m (declines excluded)" % v
            self.burst(kind, "sev1", "CardAuthErrorRate", "card-auth", "auth-gw-pool", t0, n, n, "card auth error spike",
                       60, 2.0, f)
        elif kind == "hsm":
            n = r.randint(8, 18)
            self.burst(kind, "sev1", "HsmClusterDegraded", "hsm", "hsm-cluster-b", t0, n, 2 * n, "HSM cluster B partition loss",
                       120, 1, lambda i: (min(3, 1 + i // 5), "critical", "HSM cluster B: %d of 4 partitions unavailable "
                                          "(PIN translate failing over)" % min(3, 1 + i // 5)))
        elif kind == "threeds":
            n, k = r.randint(10, 20), r.randint(4, 7)

            def f(i):
                v = round(r.uniform(6.0, 9.5) if i < k else r.uniform(11, 30), 1)
                return v, "warning" if v < 10 else "critical", "3DS ACS challenge error rate %.1f%% (threshold 5%%)" % v
            self.burst(kind, "sev1" if "ThreeDSAcsErrorRate" in _contract(self.p) else "sev2", "ThreeDSAcsErrorRate",
                       "3ds-acs", "acs-pool", t0, n, 2 * n, "3DS ACS challenge failures", 120, 5.0, f)
        elif kind in ("lb_real", "lb_flap_down"):
            member, summary = extra, "pool member down "
            pool, ip = member.split("/")[1], member.split("/")[-1]
            why = "connection refused"
            if kind == "lb_flap_down":
                # a member flaps for an hour or so, then stops coming back: the same key as its flaps
                fl0 = t0 - timedelta(minutes=r.randint(45, 110))
                n0 = len(self.events)
                self._flap(member, fl0, t0 - timedelta(minutes=r.randint(9, 16)))
                self.keep_ids.update(id(x[1]) for x in self.events[n0:])
                summary = "pool member down after flapping "
            n = r.randint(15, 40)
            if kind == "lb_flap_down":
                why = r.choice(["connection refused", "connection refused", "HTTP 503 / timeout 2000ms", "TCP RST"])
            self.burst(kind, "sev2", "LBHealthCheckFailed", "lb-edge", member, t0, n, n, summary + member, 60, 1,
                       lambda i: (3 + i, "critical", "health check failed 3/3 on %s (pool %s): %s" % (ip, pool, why) if i == 0
                                  else "%s still failing (pool %s): %s, %d consecutive checks" % (ip, pool, why, 3 + i)),
                       source="lb-healthd", pool=pool)
        elif kind == "lag_real":
            replica = extra or r.choice(["pg-ledger-replica-01", "pg-ledger-replica-02"])
            n = r.randint(4, 9)
            stip = replica == "pg-ledger-replica-01"

            def f(i):
                v = round(r.uniform(40, 120) * (1 + i), 1)
                return v, "warning" if v < 120 else "critical", "replay lag %.0fs on %s (wal receiver streaming)" % (v, replica)
            self.burst(kind, "sev1" if stip else "sev2", "PgReplicationLagHigh", "pg-ledger", replica, t0, n, 10 * n,
                       "replica lag outside batch (STIP balance cache stale)" if stip
                       else "replica lag outside batch (fraud features stale)", 600, 30, f, source="pgwatch")
        elif kind == "kafka_auth":
            n = r.randint(3, 6)

            def f(i):
                v = r.randint(60000, 250000) * (1 + i)
                return v, "critical", "consumer group auth-events lag %d msgs on topic auth.decisions" % v
            self.burst(kind, "sev2", "KafkaConsumerLag", "auth-stream", "auth-events@kafka-core", t0, n, 10 * n,
                       "auth-events consumer lag (stand-in decisions delayed)", 600, 50000, f, group="auth-events")
        elif kind == "apigw":
            n = r.randint(5, 15)

            def f(i):
                v = round(r.uniform(2, 15), 2)
                return v, "critical", "api-gw 5xx ratio %.2f%% (merchant API)" % v
            self.burst(kind, "sev2", "ApiGateway5xxRate", "api-gw", "apigw-edge", t0, n, 2 * n, "API gateway 5xx", 120, 1.0, f)
        elif kind == "synth_real":
            n = r.randint(4, 8)
            self.burst(kind, "sev2", "SyntheticCheckFailed", "synthetics", "euw2-probe-1/portal-login", t0, n, 5 * n,
                       "merchant portal login down", 300, 1,
                       lambda i: (1, "critical", "check portal-login failed from euw2-probe-1: HTTP 502 in %dms (step 2/4, "
                                  "POST /login)" % r.randint(30, 2500)), source="synthetics")
        elif kind == "synth_apac":
            # the Sydney probe itself is fine this time: our APAC edge answers with an HTTP error
            chk = r.choice(["api-auth-ping", "portal-login", "tokenise-test-card", "3ds-challenge-page"])
            host = {"api-auth-ping": "api.halyardpay.co.uk", "portal-login": "portal.halyardpay.co.uk",
                    "tokenise-test-card": "api.halyardpay.co.uk", "3ds-challenge-page": "acs.3ds.halyardpay.co.uk"}[chk]
            code = r.choice(["HTTP 503", "HTTP 502", "HTTP 504 from edge", "HTTP 403 (WAF)"])
            n = r.randint(5, 10)
            self.burst(kind, "sev2", "SyntheticCheckFailed", "synthetics", "apse2-probe-3/" + chk, t0, n, 5 * n,
                       "APAC merchants cannot reach " + host, 300, 1,
                       lambda i: (1, "critical", "check %s failed from apse2-probe-3: %s (%s, %dms)"
                                  % (chk, code, host, r.randint(80, 900))), source="synthetics")
        elif kind == "cert_real":
            # a renewal nobody picked up: the first night the cert shows a week left (cert_scans)
            c = extra
            if c in self.cert_drops or (self.phase == "dev" and c in CERT_ANCHORS_DEV):
                c = next((x for x in CERTS if x not in self.cert_drops and not (self.phase == "dev" and x in CERT_ANCHORS_DEV)), None)
            scan = self.scan_time(d) + timedelta(seconds=r.randint(0, 50))
            r.randint(2, 5)
            self._burn_cert_event(scan, extra)
            if c is not None:
                iid = self.incident(kind, "sev2", "CertExpirySoon", "pki", "cert:" + c, scan, scan + timedelta(minutes=5),
                                    "certificate about to expire: " + c)
                self.cert_drops[c] = (d, scan, iid)
        elif kind == "disk_real":
            host = "log-agg-0%d" % r.randint(1, 4)
            n = r.randint(3, 6)

            def f(i):
                v = round(min(99.5, r.uniform(95, 97) + i * 0.5), 1)
                return v, "critical", "DiskUsageHigh %s %%" % v
            self.burst(kind, "sev3", "DiskUsageHigh", "logging", host, t0, n, 10 * n, "disk filling", 600, 80, f)
        elif kind == "phantom":
            ci, sev = extra
            spec = MAINT_CIS[ci]
            s = self.at(d, r.choice([12.0, 12.5, 13.0])).replace(second=0)
            e = s + timedelta(hours=3)
            self.windows.append({"ci": ci, "start": s, "end": e, "real": False, "group": spec["group"],
                                 "what": r.choice(spec["what"]), "hides_incident": True})
            host = r.choice(spec["hosts"])
            alert = "KafkaBrokerOffline" if ci == "kafka-core" else "ServiceDown"
            t0 = s + timedelta(minutes=r.randint(40, 100))
            n = r.randint(6, 12)
            self.burst(kind, sev, alert, ci, host, t0, n, 3 * n, "%s on %s (no change running)" % (alert, host), 180, 1,
                       lambda i: (1, "critical", "%s on %s" % (alert, host)))
        else:
            raise ValueError(kind)

    # -- assembly
    def build(self):
        r = self.rng
        p = self.p
        nd = self.ndays
        scale = nd / 28.0

        def days(k):
            return [r.randrange(nd) for _ in range(k)]

        def cnt(k):
            return max(1 if nd >= 7 else 0, int(round(k * scale)))

        # maintenance plan: card-auth rolling deploys and phantom windows with something real happening
        forced = {d: [] for d in range(nd)}
        card_days = r.sample(range(nd), min(nd, cnt(3)))
        for d in card_days:
            forced[d].append(("real", "card-auth"))
        phantom_days = r.sample([d for d in range(nd) if d not in card_days], min(nd - len(card_days), cnt(4)))

        if nd >= 7:
            for kind, k in (("card_latency", 3), ("card_errors", 2), ("hsm", 2), ("threeds", 4)):
                for d in days(cnt(k)):
                    self.real(kind, d, r.uniform(0, 23.5))
            pool = LB_MEMBERS[5:] if self.phase != "dev" else LB_MEMBERS[:6]
            for d in days(cnt(4)):
                self.real("lb_real", d, r.uniform(0, 23.5), r.choice(pool))
            # replica lag outside the batch windows: daytime; when the schedule moved, some at night
            moved = p.get("batch_windows_before") and self.phase != "dev"
            nl = cnt(6)
            for i, d in enumerate(days(nl)):
                if moved and i < (nl + 1) // 2:
                    # inside February's window, outside the new one
                    self.real("lag_real", d, r.uniform(16.3, 17.2), "pg-ledger-replica-01" if i % 2 == 0 else "pg-ledger-replica-02")
                else:
                    self.real("lag_real", d, r.uniform(0.5, 10.5))
            # flapping members that finally die (same key as their flaps)
            flap_pool = LB_MEMBERS[:5] if self.phase == "dev" else LB_MEMBERS[4:]
            for d in r.sample(range(1, nd), 1 if self.phase == "dev" else 3):
                self.real("lb_flap_down", d, r.uniform(13.0, 19.5), r.choice(flap_pool))
            # a bank holiday: no batch runs, so ledger lag inside the usual window is real
            for d in range(nd):
                w0, _w1 = self.window_local(d, *self.batch_windows(d)[0])
                if to_london(w0).date() in BANK_HOLIDAYS:
                    h = (w0 - self.day_start(d)).total_seconds() / 3600.0
                    self.real("lag_real", d, h + r.uniform(0.15, 0.5), "pg-ledger-replica-02")
            for kind, k in (("kafka_auth", 2), ("apigw", 3), ("synth_real", 2)):
                for d in days(cnt(k)):
                    self.real(kind, d, r.uniform(0, 23.5))
            for d in r.sample(range(nd), 1 if self.phase == "dev" else 2):
                self.real("synth_apac", d, r.uniform(0.5, 23.0))
            for d in days(cnt(2)):
                self.real("cert_real", d, 0, r.choice(CERTS))
            for d in days(cnt(3)):
                self.real("disk_real", d, r.uniform(0, 23.5))
            sevs = ["sev1", "sev2", "sev2", "sev2"]
            cis = ["kafka-core", "pg-reporting", "merchant-portal", "fraud-scoring"]
            for i, d in enumerate(phantom_days):
                ci = cis[i % 4]
                self.real("phantom", d, 0, (ci, sevs[i % 4] if ci != "kafka-core" else "sev1"))
        elif nd >= 1:
            # shadow day: one or two real things
            self.real(r.choice(["lag_real", "apigw", "threeds"]), 0, r.uniform(1, 10))
            if r.random() < 0.5:
                self.real("card_latency", 0, r.uniform(0, 12))

        for d in range(nd):
            self.lb_flaps(d)
            self.replication_lag_batches(d)
            self.hand_silenced(d)
            self.blips(d)
            self.misc(d)
            self.maintenance(d, forced[d])
        self.cert_scans()

        # noise never shares a key with a real incident close in time (so dedup judgement stays fair)
        keep = []
        for dt, ev, iid, key in self.events:
            if iid is None and id(ev) not in self.keep_ids:
                clash = False
                for (t0, t1) in self.busy.get(key, []):
                    if t0 - timedelta(minutes=100) <= dt <= t1 + timedelta(minutes=40):
                        clash = True
                        break
                if clash:
                    continue
            keep.append((dt, ev, iid, key))
        self.events = keep
        # a real incident's start = its first event
        for dt, _ev, iid, _key in sorted(self.events, key=lambda x: x[0]):
            if iid and self.incidents[iid]["start"] is None:
                self.incidents[iid]["start"] = dt

    # -- calendar rendering
    def calendar_records(self):
        r = random.Random(self.rng.random())
        real_state = self.p.get("calendar_real_state", "Scheduled")
        phantom_states = self.p.get("calendar_phantom_states", ["Cancelled"])
        recs = []
        for i, w in enumerate(sorted(self.windows, key=lambda w: w["start"])):
            st = real_state if w["real"] else r.choice(phantom_states)
            if w.get("hides_incident"):
                st = phantom_states[0]  # the block-booked / cancelled slot something real broke in
            recs.append({"number": "CHG%07d" % (31400 + i * 7 + r.randint(0, 6) + (0 if self.phase != "held" else 900)),
                         "ci": w["ci"], "start": w["start"], "end": w["end"], "state": st,
                         "group": w["group"], "what": w["what"]})
        return recs

    def render_calendar(self, recs):
        fmt = self.p.get("calendar_format", "json")
        if fmt == "json":
            out = []
            for c in recs:
                out.append({"number": c["number"], "short_description": c["what"], "cmdb_ci": c["ci"] + ".prd",
                            "state": c["state"], "assignment_group": c["group"],
                            "planned_start": c["start"].strftime("%Y-%m-%dT%H:%M:%SZ"),
                            "planned_end": c["end"].strftime("%Y-%m-%dT%H:%M:%SZ"), "risk": "Moderate"})
            return out
        lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Halyard Payments//CAB calendar export//EN",
                 "X-WR-CALNAME:CAB - Production changes", "X-WR-TIMEZONE:Europe/London"]
        for c in recs:
            ls, le = to_london(c["start"]), to_london(c["end"])
            lines += ["BEGIN:VEVENT", "UID:%s@cab.halyard.local" % c["number"],
                      "DTSTART;TZID=Europe/London:" + ls.strftime("%Y%m%dT%H%M%S"),
                      "DTEND;TZID=Europe/London:" + le.strftime("%Y%m%dT%H%M%S"),
                      "SUMMARY:%s %s - %s" % (c["number"], c["ci"], c["what"]),
                      "STATUS:" + c["state"], "X-CMDB-CI:%s.prd" % c["ci"],
                      "ORGANIZER;CN=%s:mailto:cab@halyardpay.co.uk" % c["group"], "END:VEVENT"]
        lines.append("END:VCALENDAR")
        return "\r\n".join(lines) + "\r\n"

    def batches(self):
        recs = self.calendar_records()
        out = []
        evs = sorted(self.events, key=lambda x: x[0])
        # a little out-of-order delivery, like the bridge does
        for i in range(len(evs) - 1):
            if self.rng.random() < 0.03 and (evs[i + 1][0] - evs[i][0]).total_seconds() < 120:
                evs[i], evs[i + 1] = evs[i + 1], evs[i]
        for d in range(self.ndays):
            a, b = self.day_start(d), self.day_start(d + 1)
            day_ev = [x for x in evs if a <= x[0] < b]
            cal = [c for c in recs if c["end"] >= a - timedelta(hours=12) and c["start"] <= b + timedelta(hours=24)]
            batch = {"shift_start": a.strftime("%Y-%m-%dT%H:%M:%SZ"), "shift_end": b.strftime("%Y-%m-%dT%H:%M:%SZ"),
                     "events": [x[1] for x in day_ev], "change_calendar": self.render_calendar(cal)}
            truth = {x[1]["id"]: x[2] for x in day_ev}
            out.append({"batch": batch, "truth": truth})
        return out


def _world(params: dict, seed: int) -> int:
    """Seed of one generation: world_seed (0 in the named variants) shifts every phase's seed by a
    multiple of 10^7, so dev, held-out and shadow seeds stay disjoint for any world."""
    return int(seed) + 10_000_000 * int(params.get("world_seed", 0) or 0)


def _build(params: dict, start: date, ndays: int, seed: int, phase: str) -> _Gen:
    g = _Gen(params, start, ndays, _world(params, seed), phase)
    g.build()
    return g


def _incidents_json(g: _Gen) -> dict:
    out = {}
    for iid, m in g.incidents.items():
        if m["start"] is None:
            continue
        mm = dict(m)
        mm["start"] = m["start"].strftime("%Y-%m-%dT%H:%M:%SZ")
        out[iid] = mm
    return out


# ----------------------------------------------------------------------------- public API


def held_out(params: dict, seed: int) -> dict:
    g = _build(params, HELD_START, HELD_DAYS, 100000 + int(seed), "held")
    return {"days": g.batches(), "incidents": _incidents_json(g), "contract_alerts": _contract(params)}


def shadow(params: dict, day: int) -> dict:
    g = _build(params, SHADOW_START + timedelta(days=(int(day) - 1) % 14), 1, 50000 + int(day), "shadow")
    return {"days": g.batches(), "incidents": _incidents_json(g), "contract_alerts": _contract(params)}


# ----------------------------------------------------------------------------- pager-log notes
# Three people carried the pager in February and wrote the ack notes in their own way: Kasia
# (terse, lower case, tired), Tomás (full sentences, ticket numbers, signs "-TF"), Ben (clipped,
# capitals, "ack'd"). A note starting "@lunch:" is only written for a page between 11:30 and 14:30 UK time,
# "@night:" only between 21:00 and 06:00. Placeholders: {t} local time, {n} pages of this key tonight, {m} member ip,
# {lb} lb name, {pool}, {svc}, {host}, {chg} change number, {v} value, {cert}, {chk} synthetic check.
VOICE = {
    "kasia.wrona": {
        "lb": ["flap", "{m} again", "{m} again ({n} tonight)", "same member. {n}th time", "ffs {pool}", "bouncing, rise 1 strikes again",
               "{lb} {pool} flapping since {t}", "acked, it's the flapper", "{m} back in rotation before I opened the laptop ({t})", "",
               "flap #{n}", "NET-311 pls", "{m} - not even looking anymore tbh", "", "lb noise"],
        "lag": ["batch", "settlement running", "lag {v}s, batch", "", "replica-02 during batch, leaving it", "batch lag, it'll catch up",
                "is this ever not the batch?", "", "ack - batch"],
        "cert": ["cert scan o'clock", "silenced 24h", "{cert} - {v}d, renewal ticket exists", "", "midnight cert spam", "silenced"],
        "apse2": ["sydney", "probe-3, silenced", "apse2 again", "", "silenced 12h (OPS-1150)"],
        "etl": ["etl lag silenced", "analytics, silenced til 6", "", "not ours"],
        "cardauth": ["blip, cleared", "checked auth dash, fine by the time I looked", "p99 {v}ms, back under in 2 min", "blip",
                     "@lunch:lunchtime blip", "@night:woke up for a blip, cleared before I found the dash"],
        "cardauth_err": ["blip, cleared", "err rate {v}%, back under in 2 min", "declines normal, tech errors {v}% for a min", "blip",
                         "@lunch:lunchtime blip"],
        "maint": ["change?", "{svc} - someone patching, nobody posted", "{t} {chg} in the calendar, no post in ops-bridge as usual", "",
                  "{host} rebooting - planned?", "found it in the CAB cal, {chg}"],
        "other": ["", "ack", "fine now", "looked, nothing", "cleared before I got to it", "", "meh"],
        "real": ["real. INC raised", "this one was real", "real - bridge opened {t}", "", "escalated"],
    },
    "tomas.ferreira": {
        "lb": ["LB member flap on {m}, acked. Raised nothing, NET-311 already covers it. -TF",
               "Flapping member {m} ({pool}), page {n} of the night.", "Same {pool} member as before.",
               "{lb}: {m} in and out of rotation, checked {pool} error rate - nothing.", "", "Flap. -TF",
               "Acked. Rise 1 problem again (NET-311).", "{m} bounced again at {t}.", ""],
        "lag": ["Replica lag during the settlement batch ({v}s at {t}), expected. -TF", "Batch window, acked.", "",
                "Lag {v}s on the ledger replica, batch is running (checked Control-M).", "Settlement batch lag."],
        "cert": ["Cert scan: {cert} has {v} days. Renewal is on SECENG board, silenced 24h.", "Silenced, cert > 7 days.",
                 "{cert}: {v} days left. Not urgent.", ""],
        "apse2": ["apse2-probe-3 timeouts again (OPS-1150). Silenced 12h. -TF", "Sydney probe, {chk}. Silenced.", "",
                  "Probe-3 timing out on {chk}; EU probes green."],
        "etl": ["analytics-etl consumer lag, nightly ETL. Silenced until 06:00.", "ETL lag, silenced. -TF", ""],
        "cardauth": ["Card auth p99 {v}ms, cleared within two minutes. Watched the dashboard for ten.",
                     "Short auth blip, recovered on its own.", "Checked auth-gw dashboards, all nodes healthy."],
        "cardauth_err": ["Card auth technical errors {v}%, cleared within two minutes. Declines normal.",
                         "Short auth error blip, recovered on its own.", "Checked auth-gw dashboards, all nodes healthy."],
        "maint": ["{svc} change running ({chg}), implementer didn't post. Silenced the CI.", "Planned work on {svc}. -TF",
                  "Was in the CAB calendar ({chg}).", "", "{host} down during patching, expected."],
        "other": ["", "Acked, cleared.", "@night:Acked. Will look in the morning.", "Looked at it, fine now.", ""],
        "real": ["Real. INC raised, {svc} team engaged.", "Real incident, bridge opened at {t}. -TF", "Escalated to the owning team."],
    },
    "ben.okafor": {
        "lb": ["LB flap", "ack'd - LB", "flap {m}", "LB again. {n}x", "", "{pool} member flapping", "LB FLAP", "ack'd, same member"],
        "lag": ["batch", "ack'd, settlement batch", "", "PG lag - batch window?", "lag {v}s batch"],
        "cert": ["cert", "silenced - renewal in SECENG", "", "cert {v}d, silenced"],
        "apse2": ["apse2", "SYD probe - silenced", ""],
        "etl": ["ETL", "silenced ETL lag", ""],
        "cardauth": ["auth blip, cleared", "checked dash, ok", "blip"],
        "cardauth_err": ["auth blip, cleared", "checked dash, ok", "blip", "auth errs {v}% - gone"],
        "maint": ["planned?", "{chg} running", "", "patching {host}", "CAB change - nobody posted", "{svc} work, {chg}"],
        "other": ["", "ack'd", "ok now", "", "cleared"],
        "real": ["REAL - INC", "real one, paged owner", "escalated {t}", ""],
    },
}
REAL_NOTES = {
    "lb_flap_down": ["that member stopped coming back - count went past 3 and kept climbing, pulled it from the pool. INC",
                     "Not a flap this time: {m} stayed down (consecutive failures 5, 6, 7...). INC raised. -TF",
                     "member dead after flapping all evening. REAL"],
    "synth_apac": ["sydney probe but it's an actual HTTP error from our edge, not the usual timeout. APAC merchants complaining. INC",
                   "apse2-probe-3 returned an HTTP error, not a timeout - this one is real (APAC edge). INC raised. -TF",
                   "SYD probe real this time - HTTP 5xx not timeout. INC"],
}


INC_SUMMARY = {
    "card_latency": ["auth p99 degraded, {inst}", "Card auth latency - GC pauses on one auth-gw node", "p99 > 1.5s for ~20 min, schemes stood in",
                     "auth latency spike after deploy, rolled back", "card-auth slow, HSM round trips fine, JVM on auth-gw"],
    "card_errors": ["auth technical errors > 2% (scheme gw timeouts)", "Card auth errors - ISO8583 field 55 rejects", "auth error spike, node pulled"],
    "hsm": ["HSM cluster B partition loss, PIN translate on A", "HSM B degraded - Thales support case opened", "hsm-cluster-b partitions down"],
    "threeds": ["3DS ACS challenge failures (vendor)", "ACS vendor errors, CNP challenges failing", "3DS challenge error rate high - vendor incident"],
    "lb_real": ["pool member down {inst}", "LB member dead: {inst}", "{inst} out of pool, JVM OOM"],
    "lb_flap_down": ["{inst} flapped most of the evening then died (connection refused), pulled from pool",
                     "member down after flapping - {inst}"],
    "lag_real": ["ledger replica lag outside batch - {inst}", "{inst} lag in the day, no batch running; WAL receiver stuck",
                 "replica lag, fraud features stale ({inst})", "STIP balance cache stale, {inst} behind"],
    "kafka_auth": ["auth-events consumer lag, stand-in decisions late", "auth-events lag - consumer rebalance loop"],
    "apigw": ["API gateway 5xx to merchants", "api-gw 5xx spike, bad config push", "merchant API errors (api-gw)"],
    "synth_real": ["merchant portal login down (EU probes)", "portal-login failing from London probe, real outage"],
    "synth_apac": ["APAC merchants can't reach {inst} - edge HTTP errors, probe-3 was right for once",
                   "Sydney probe HTTP errors were real: APAC CDN route broken"],
    "cert_real": ["cert about to expire: {inst}", "{inst} within 7 days of expiry - emergency renewal"],
    "disk_real": ["log-agg disk filling", "{inst} disk > 95%"],
    "phantom": ["{alert} on {inst} - no change actually running (CAB slot unused)", "{inst} down, nothing in progress despite calendar entry"],
}


def _inc_summary(rng, m: dict) -> str:
    opts = INC_SUMMARY.get(m["kind"]) or [m["summary"]]
    return rng.choice(opts).format(inst=m["instance"].replace("cert:", ""), alert=m["alert"])


def _detected_via(rng, m: dict) -> str:
    if m["kind"] == "synth_apac":
        return "merchant complaint (APAC)"
    if m["kind"] == "lb_flap_down":
        return "page (noticed the count climbing)"
    if m["kind"] == "cert_real":
        return "page"
    if m["kind"] in ("lag_real",):
        return rng.choice(["page", "fraud team", "page"])
    return rng.choice(["page", "page", "page", "page (after ack of dupes)", "merchant complaint" if m["sev"] != "sev3" else "page"])


def _typo(rng, text: str) -> str:
    if len(text) > 12 and rng.random() < 0.08:
        k = rng.randrange(3, len(text) - 2)
        if text[k].isalpha() and text[k + 1].isalpha():
            text = text[:k] + text[k + 1] + text[k] + text[k + 2:]
    return text


def _note_fits(note: str, hour) -> bool:
    """Whether a time-bound note ("@lunch:", "@night:") fits a page at ``hour`` (UK local, float)."""
    if not note.startswith("@") or hour is None:
        return not note.startswith("@")
    when = note[1:].split(":", 1)[0]
    if when == "lunch":
        return 11.5 <= hour < 14.5
    if when == "night":
        return hour >= 21 or hour < 6
    return False


def _pager_note(rng, who: str, cat: str, ctx: dict) -> str:
    if who == "-":
        return ""
    if cat.startswith("real:") and cat[5:] in REAL_NOTES:
        opts = REAL_NOTES[cat[5:]]
        text = opts[["kasia.wrona", "tomas.ferreira", "ben.okafor"].index(who) % len(opts)] if who in VOICE else opts[0]
    else:
        if cat == "maint" and rng.random() < min(0.8, 0.12 * int(ctx.get("ns") or 1)):
            return ""  # the tenth HostUnreachable of the same change gets no note
        if cat in ("lb", "lag", "cert", "apse2", "etl") and rng.random() < min(0.7, 0.12 * int(ctx.get("n") or 1)):
            return ""  # by the fifth page of the same thing nobody writes a note
        opts = [o for o in VOICE.get(who, VOICE["ben.okafor"])[cat.split(":")[0]] if _note_fits(o, ctx.get("hour"))]
        text = rng.choice(opts)
        text = text.split(":", 1)[1] if text.startswith("@") else text
    try:
        text = text.format(**ctx)
    except (KeyError, IndexError):
        text = ""
    return _typo(rng, text)


# docs/oncall_rota.md: (primary, secondary) per week from Monday 09:00. The primary acks; a page left
# unacked for 10 minutes escalates to the secondary (oncall_handbook.md), who acks it. Tomás is on
# leave from Mon 23 Feb, so Ben took that week.
ROTA_DEV = [("kasia.wrona", "tomas.ferreira"), ("ben.okafor", "kasia.wrona")]
ESCALATE_S = 600
# alertbridge's archiver was restarted mid-write twice in the fortnight (5.1 rollout on the afternoon
# of 19 Feb, 5.1.1 hotfix late on the morning of 25 Feb): the first event it was writing once the deploy
# began is cut short in data/events/ (docs/tickets/OPS-1214.md). The router got those events whole.
ARCHIVER_RESTARTS = [datetime(2026, 2, 19, 14, 0, tzinfo=UTC), datetime(2026, 2, 25, 11, 30, tzinfo=UTC)]


def _emulate_current_router(ev: dict, rules: dict) -> str:
    r = rules.get("alerts", {}).get(ev.get("alert"))
    v = ev.get("value")
    if r and r.get("page_at") is not None and isinstance(v, (int, float)):
        if r.get("cmp", ">=") == "<=":
            return "page" if v <= r["page_at"] else "ticket"
        return "page" if v >= r["page_at"] else "ticket"
    return rules.get("defaults", {}).get(ev.get("severity"), "ticket")


def dev(params: dict, out: pathlib.Path) -> None:
    out = pathlib.Path(out)
    g = _build(params, DEV_START, DEV_DAYS, DEV_SEED, "dev")
    days = g.batches()
    rng = random.Random(_world(params, DEV_SEED + 7))
    evdir = out / "data" / "events"
    evdir.mkdir(parents=True, exist_ok=True)
    rules_path = out / "system" / "alertrouter" / "rules.json"
    if not rules_path.exists():
        rules_path = pathlib.Path(__file__).resolve().parent / "world" / "system" / "alertrouter" / "rules.json"
    rules = json.loads(rules_path.read_text()) if rules_path.exists() else {}
    pager = io.StringIO()
    pw = csv.writer(pager)
    pw.writerow(["page_id", "triggered_at", "alert", "instance", "dedup_key", "acked_by", "ack_after_s", "note"])
    pid = 88213
    recs = g.calendar_records()
    for d, day in enumerate(days):
        dname = (DEV_START + timedelta(days=d)).isoformat()
        lines = [json.dumps(e, separators=(",", ":")) for e in day["batch"]["events"]]
        for restart in ARCHIVER_RESTARTS:
            if utc(parse_iso(day["batch"]["shift_start"])) <= restart < utc(parse_iso(day["batch"]["shift_end"])):
                at = [(utc(parse_iso(e["ts"])), i) for i, e in enumerate(day["batch"]["events"])]
                k = min([x for x in at if x[0] >= restart] or [max(at)])[1]
                lines[k] = lines[k][: len(lines[k]) // 2]
        (evdir / (dname + ".jsonl")).write_text("\n".join(lines) + "\n")
        primary, secondary = ROTA_DEV[min(d // 7, len(ROTA_DEV) - 1)]
        seen = {}
        first_pid = {}
        for e in day["batch"]["events"]:
            if _emulate_current_router(e, rules) != "page":
                continue
            pid += rng.randint(1, 40)
            iid = day["truth"][e["id"]]
            a = e["alert"]
            inst = e.get("instance") or ""
            t = utc(parse_iso(e["ts"]))
            member = inst.split("#g")[0]
            seen[(a, member)] = seen.get((a, member), 0) + 1
            seen[e.get("service")] = seen.get(e.get("service"), 0) + 1
            chg = next((c["number"] for c in recs if c["ci"] == e.get("service") and c["start"] <= t <= c["end"]), "")
            parts = member.split("/")
            lt = to_london(t)
            ctx = {"hour": lt.hour + lt.minute / 60.0, "t": lt.strftime("%H:%M"), "n": seen[(a, member)], "ns": seen[e.get("service")], "m": parts[-1], "lb": parts[0],
                   "pool": (e.get("labels") or {}).get("pool", parts[1] if len(parts) > 2 else ""), "svc": e.get("service"),
                   "host": inst, "chg": chg or "no CHG I could find", "v": e.get("value") if e.get("value") is not None
                   else (e.get("labels") or {}).get("days_left", "?"), "cert": inst.replace("cert:", ""),
                   "chk": parts[-1]}
            if iid:
                cat = "real:" + g.incidents[iid]["kind"]
                if cat[5:] not in REAL_NOTES:
                    cat = "real"
            elif a == "LBHealthCheckFailed":
                cat = "lb"
            elif a == "PgReplicationLagHigh":
                cat = "lag"
            elif a == "CertExpirySoon":
                cat = "cert"
            elif a == "SyntheticCheckFailed" and inst.startswith("apse2-probe-3"):
                cat = "apse2"
            elif a == "KafkaConsumerLag" and inst.startswith("analytics-etl"):
                cat = "etl"
            elif a == "CardAuthLatencyP99High":
                cat = "cardauth"
            elif a.startswith("CardAuth"):
                cat = "cardauth_err"
            elif chg:
                cat = "maint"
            else:
                cat = "other"
            ts = e["ts"]
            key = "%s|%s|%s" % (a, inst, ts)
            acked = rng.random() > 0.08
            ack = (rng.randint(40, 420) if rng.random() < 0.85 else rng.randint(ESCALATE_S + 1, 1500)) if acked else ""
            who = "-" if not acked else primary if ack <= ESCALATE_S else secondary
            note = _pager_note(rng, who, cat, ctx)
            if iid and iid in first_pid and who != "-":
                note = rng.choice(["", "", "dupe of PD%07d" % first_pid[iid], "same INC", "still going (%s)" % ctx["t"],
                                   "part of PD%07d" % first_pid[iid], "+1", "ack'd, dup of PD%07d" % first_pid[iid], ""])
            if iid:
                first_pid.setdefault(iid, pid)
            pw.writerow(["PD%07d" % pid, ts, a, inst, key, who, ack, note])
    (out / "data" / "pager_log.csv").write_text(pager.getvalue())

    cal = g.render_calendar(recs)
    if isinstance(cal, str):
        (out / "data" / "change_calendar_export.ics").write_text(cal)
    else:
        (out / "data" / "change_calendar_export.json").write_text(json.dumps(cal, indent=1) + "\n")

    inc = io.StringIO()
    iw = csv.writer(inc)
    iw.writerow(["inc", "sev", "opened_utc", "service", "alert", "instance", "summary", "detected_via"])
    inc_no = {}
    for i, (iid, m) in enumerate(sorted(g.incidents.items(), key=lambda x: x[1]["start"] or datetime.max.replace(tzinfo=UTC))):
        if m["start"] is None:
            continue
        inc_no[iid] = "INC-%d" % (4402 + i * 3)
        iw.writerow(["INC-%d" % (4402 + i * 3), m["sev"].upper().replace("SEV", "SEV-"),
                     m["start"].strftime("%Y-%m-%d %H:%M"), m["service"], m["alert"], m["instance"],
                     _inc_summary(rng, m), _detected_via(rng, m)])
    (out / "data" / "incidents.csv").write_text(inc.getvalue())

    # the SECENG board's certificate renewals: why a cert drops out of the nightly scan
    sec = io.StringIO()
    sw = csv.writer(sec)
    sw.writerow(["key", "certificate", "issuer", "not_after", "status", "renewed_utc", "days_left_at_renewal",
                 "new_not_after", "comment"])
    rows = [x for x in g.cert_renewals if x["renewed"] or x["left"] <= 30]
    for i, x in enumerate(sorted(rows, key=lambda x: x["old"])):
        c = x["cert"]
        issuer = "Halyard Internal CA G2" if c.endswith(".halyard.local") else "Sectigo RSA DV"
        if x["iid"] and x["renewed"]:
            status, note = "Done", "renewal missed on the board; emergency renewal after %s" % inc_no.get(x["iid"], "the page")
        elif x["iid"]:
            status, note = "In Progress", "renewal missed on the board; paged (%s), emergency renewal this morning" % inc_no.get(x["iid"], "the page")
        elif x["renewed"]:
            status, note = "Done", rng.choice(["", "", "CSR from the service owner, installed and verified",
                                               "auto-renewed, checked the chain", "renewed, LB cert updated"])
        else:
            status, note = rng.choice(["To Do", "In Progress"]), ""
        sw.writerow(["SECENG-%d" % (512 + i * 2 + rng.randint(0, 1)), c, issuer, x["old"].strftime("%Y-%m-%dT%H:%M:%SZ"), status,
                     x["renewed"].strftime("%Y-%m-%d %H:%M") if x["renewed"] else "", x["left"] if x["renewed"] else "",
                     x["new"].strftime("%Y-%m-%dT%H:%M:%SZ") if x["new"] else "", note])
    (out / "data" / "seceng_cert_renewals.csv").write_text(sec.getvalue())
