import HomeRecords

/// The database schema as an ordered list of migrations: version N is reached by running migrations 1…N,
/// each in its own transaction with the version it reaches. Append, never edit: stores in the field hold old versions.
/// 64-bit IDs are stored as their Int64 bit pattern (SQLite integers are signed); times as Unix seconds.
enum HubSchema {
    static let migrations: [[String]] = [
        // 1: the fabric, nodes, their addresses and endpoints, and the node IDs ever handed out.
        [
            """
            CREATE TABLE fabric (
                fabric_id INTEGER PRIMARY KEY,
                hub_node_id INTEGER NOT NULL,
                vendor_id INTEGER NOT NULL,
                rcac BLOB NOT NULL,
                icac BLOB,
                hub_noc BLOB NOT NULL,
                ipk_epoch_key BLOB NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE nodes (
                node_id INTEGER PRIMARY KEY,
                vendor_id INTEGER NOT NULL,
                product_id INTEGER NOT NULL,
                vendor_name TEXT,
                product_name TEXT,
                serial_number TEXT,
                attestation_verdict TEXT NOT NULL,
                attestation_trusted INTEGER NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('commissioning', 'commissioned', 'failed')),
                mrp_idle_ms INTEGER,
                mrp_active_ms INTEGER,
                mrp_active_threshold_ms INTEGER,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE node_addresses (
                node_id INTEGER NOT NULL REFERENCES nodes(node_id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                address BLOB NOT NULL,
                port INTEGER NOT NULL,
                scope_id INTEGER NOT NULL,
                PRIMARY KEY (node_id, position)
            )
            """,
            """
            CREATE TABLE endpoints (
                node_id INTEGER NOT NULL REFERENCES nodes(node_id) ON DELETE CASCADE,
                endpoint INTEGER NOT NULL,
                device_type INTEGER NOT NULL,
                revision INTEGER NOT NULL,
                PRIMARY KEY (node_id, endpoint, device_type)
            )
            """,
            """
            CREATE TABLE node_id_allocations (
                node_id INTEGER PRIMARY KEY,
                allocated_at INTEGER NOT NULL
            )
            """,
        ],
        // 2: rooms, and the devices the home shows: one per application endpoint of a commissioned node.
        [
            """
            CREATE TABLE rooms (
                room_id TEXT PRIMARY KEY,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                created_at INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE devices (
                node_id INTEGER NOT NULL REFERENCES nodes(node_id) ON DELETE CASCADE,
                endpoint INTEGER NOT NULL,
                name TEXT NOT NULL,
                room_id TEXT REFERENCES rooms(room_id) ON DELETE SET NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (node_id, endpoint)
            )
            """,
        ],
        // 3: structures (one default, "Home"), rooms belong to a structure, a node may carry a name of its own (the
        // whole node as one device), and a change counter every change to what the home shows increments, so other
        // connections and processes sharing the database can notice changes by reading one row when a file of the store changes.
        [
            """
            CREATE TABLE structures (
                structure_id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            """
            INSERT INTO structures (structure_id, name, created_at)
            VALUES (upper(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-' || hex(randomblob(2)) || '-' || hex(randomblob(2))
                          || '-' || hex(randomblob(6))), 'Home', unixepoch())
            """,
            "ALTER TABLE rooms ADD COLUMN structure_id TEXT REFERENCES structures(structure_id) ON DELETE CASCADE",
            "UPDATE rooms SET structure_id = (SELECT structure_id FROM structures)",
            "ALTER TABLE nodes ADD COLUMN name TEXT",
            """
            CREATE TABLE change_counter (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                value INTEGER NOT NULL
            )
            """,
            "INSERT INTO change_counter (id, value) VALUES (1, 0)",
        ] + ["structures", "rooms", "devices", "nodes", "endpoints"].flatMap(countingChanges),
        // 4: the home's one add-device (commissioning) session, owned by a process (PID and its start time, so a
        // recycled PID is not mistaken for the owner) until a deadline; the nodes it commissioned; and the grants
        // that let a local user other than the hub's owner add devices to a structure.
        [
            """
            CREATE TABLE commissioning_session (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                session_id TEXT NOT NULL,
                structure_id TEXT NOT NULL REFERENCES structures(structure_id) ON DELETE CASCADE,
                owner_pid INTEGER NOT NULL,
                owner_start_ticks INTEGER NOT NULL,
                deadline INTEGER NOT NULL,
                interfaces TEXT NOT NULL,
                paa_trust_store TEXT NOT NULL,
                created_at INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE commissioning_session_nodes (
                node_id INTEGER PRIMARY KEY
            )
            """,
            """
            CREATE TABLE commissioning_grants (
                uid INTEGER NOT NULL,
                structure_id TEXT NOT NULL REFERENCES structures(structure_id) ON DELETE CASCADE,
                granted_at INTEGER NOT NULL,
                PRIMARY KEY (uid, structure_id)
            )
            """,
        ],
        // 5: the semantic tags each endpoint's Descriptor TagList declares, in the device's order, so the parts of a
        // multipart device can be told apart without reaching it.
        [
            """
            CREATE TABLE endpoint_tags (
                node_id INTEGER NOT NULL REFERENCES nodes(node_id) ON DELETE CASCADE,
                endpoint INTEGER NOT NULL,
                position INTEGER NOT NULL,
                manufacturer_code INTEGER,
                namespace_id INTEGER NOT NULL,
                tag INTEGER NOT NULL,
                label TEXT,
                PRIMARY KEY (node_id, endpoint, position)
            )
            """
        ],
        // 6: a change of tags alone (the node's Descriptor changed while live) is a change of the home, as for endpoints.
        countingChanges(of: "endpoint_tags"),
        // 7: who is commissioning a node (so a row whose process died is known at once, not after a timeout) and the
        // last step it finished (so a node that never reached CommissioningComplete is forgotten once its fail-safe
        // has surely rolled it back).
        [
            "ALTER TABLE nodes ADD COLUMN owner_pid INTEGER",
            "ALTER TABLE nodes ADD COLUMN owner_start_ticks INTEGER",
            "ALTER TABLE nodes ADD COLUMN step_reached TEXT",
        ],
        // 8: the devices this hub holds in a fail-safe before it has a node row for them (PASE to AddNOC), by the
        // address PASE reached, so a later attempt that the device refuses as BUSY knows the commissioning holding it
        // was this hub's, and when its fail-safe expires; and when a node's interrupted commissioning was finished
        // apart from it (named after its product, in no room), until a commissioning of the same device adopts it.
        [
            """
            CREATE TABLE fail_safes (
                address TEXT PRIMARY KEY,
                expires_at INTEGER NOT NULL
            )
            """,
            "ALTER TABLE nodes ADD COLUMN recovered_at INTEGER",
        ],
        // 9: what a restarted hub needs to bring every node live quickly: each node's CASE resumption record
        // (HubStore+CASEResumptions), so it resumes sessions instead of running the full CASE, and each node's
        // attribute cache with its data versions (HubStore+AttributeCaches), so the priming leaves out what did not
        // change. Neither is counted as a change: the home looks the same.
        [
            """
            CREATE TABLE case_resumptions (
                node_id INTEGER PRIMARY KEY REFERENCES nodes(node_id) ON DELETE CASCADE,
                resumption_id BLOB NOT NULL,
                shared_secret BLOB NOT NULL,
                local_node_id INTEGER NOT NULL,
                fabric_id INTEGER NOT NULL,
                root_public_key BLOB NOT NULL
            )
            """,
            """
            CREATE TABLE attribute_caches (
                node_id INTEGER PRIMARY KEY REFERENCES nodes(node_id) ON DELETE CASCADE,
                cache BLOB NOT NULL
            )
            """,
        ],
        // 10: Matter groups (HubStore+Groups): the home's group key set (its epoch key is a secret, as the IPK is),
        // each room's group ID (never reused: a device that missed its room's removal must not join a new room), and
        // what each node was last given of the home's groups, so an offline node is repaired when it returns.
        [
            """
            CREATE TABLE group_key_sets (
                key_set_id INTEGER PRIMARY KEY,
                epoch_key BLOB NOT NULL,
                start_time INTEGER NOT NULL
            )
            """,
            "ALTER TABLE rooms ADD COLUMN group_id INTEGER",
            """
            UPDATE rooms SET group_id = (
                SELECT position FROM (
                    SELECT room_id AS id, ROW_NUMBER() OVER (ORDER BY created_at, rowid) AS position FROM rooms)
                WHERE id = rooms.room_id)
            """,
            "CREATE UNIQUE INDEX rooms_group_id ON rooms(group_id)",
            "CREATE TABLE group_ids (last INTEGER NOT NULL)",
            "INSERT INTO group_ids (last) SELECT COALESCE(MAX(group_id), 0) FROM rooms",
            "ALTER TABLE nodes ADD COLUMN groups_given TEXT",
        ],
        // 11: named groups of devices (HubStore+Groups): a group ID from the rooms' counter (no two groups of the home
        // share one), a name unique in the home, and its devices, whatever their rooms; changes are counted, the home
        // shows them.
        [
            """
            CREATE TABLE device_groups (
                group_id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                structure_id TEXT NOT NULL REFERENCES structures(structure_id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE device_group_members (
                group_id INTEGER NOT NULL REFERENCES device_groups(group_id) ON DELETE CASCADE,
                node_id INTEGER NOT NULL,
                endpoint INTEGER NOT NULL,
                PRIMARY KEY (group_id, node_id, endpoint),
                FOREIGN KEY (node_id, endpoint) REFERENCES devices(node_id, endpoint) ON DELETE CASCADE
            )
            """,
        ] + countingChanges(of: "device_groups") + countingChanges(of: "device_group_members"),
        // 12: where the hub's group message counter resumes (Matter Core §4.5.1.2): a restarted hub must never send a
        // counter it sent before under the same key.
        ["ALTER TABLE group_ids ADD COLUMN message_counter INTEGER"],
        // 13: the network credentials the hub gives a device fresh from its box (HubStore+NetworkCredentials): one
        // Wi-Fi network and one Thread dataset; secrets, like the IPK beside them (0600, never printed).
        [
            """
            CREATE TABLE network_credentials (
                kind TEXT PRIMARY KEY CHECK (kind IN ('wifi', 'thread')),
                name BLOB NOT NULL,
                secret BLOB NOT NULL,
                updated_at INTEGER NOT NULL
            )
            """
        ],
        // 14: credentials by name (matterjs-server's schema 12 lists): several Wi-Fi networks and Thread datasets,
        // each under an ID; the one stored so far is the "default" entry.
        [
            """
            CREATE TABLE network_credential_entries (
                kind TEXT NOT NULL CHECK (kind IN ('wifi', 'thread')),
                id TEXT NOT NULL,
                name BLOB NOT NULL,
                secret BLOB NOT NULL,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (kind, id)
            )
            """,
            """
            INSERT INTO network_credential_entries (kind, id, name, secret, updated_at)
                SELECT kind, 'default', name, secret, updated_at FROM network_credentials
            """,
            "DROP TABLE network_credentials",
        ],
        // 15: the hub's registration as a check-in client of each Long Idle Time device (Matter Core §9.16.7.1): the
        // key it registered (a secret, like the IPK: 0600, never printed), the device's counter at registration and the
        // highest offset from it heard (a check-in at or below it is a replay), and the idle time it promised.
        [
            """
            CREATE TABLE icd_registrations (
                node_id INTEGER PRIMARY KEY REFERENCES nodes(node_id) ON DELETE CASCADE,
                check_in_key BLOB NOT NULL,
                start_counter INTEGER NOT NULL,
                last_offset INTEGER,
                idle_seconds INTEGER NOT NULL,
                active_milliseconds INTEGER NOT NULL,
                registered_at INTEGER NOT NULL
            )
            """
        ],
    ]

    static var currentVersion: Int { migrations.count }

    /// Triggers that increment the change counter in the transaction that writes `table`.
    private static func countingChanges(of table: String) -> [String] {
        ["INSERT", "UPDATE", "DELETE"].map { event in
            """
            CREATE TRIGGER \(table)_\(event.lowercased())_counts AFTER \(event) ON \(table)
            BEGIN UPDATE change_counter SET value = value + 1; END
            """
        }
    }
}
