#!/usr/bin/env python3
"""A stand-in for BlueZ on a private D-Bus, for the tests of swift-home's BlueZ central.

It owns org.bluez and serves what BlueZ's D-Bus API documents (doc/adapter-api, device-api, gatt-api): an
ObjectManager at /, adapter hci0 (powered; SetDiscoveryFilter, StartDiscovery, StopDiscovery), and, once discovery
starts, one Matter device advertising service data under 0xFFF6. Connect resolves its services a moment later (the
Matter service with C1 and C2, C1 with an MTU); a write request to C1 goes to a scripted BTP peripheral (Matter Core
§4.19): the capabilities request is answered on C2 once notifications are on, and each data message is acknowledged
and kept, for the test to read back through org.swifthome.StandIn.Received. Device.Disconnect, and the test's
StandIn.DropConnection, end the connection as BlueZ signals it (Connected false); StandIn.SetPowered turns the adapter
off or on as BlueZ signals it (PropertiesChanged).

    bluez-standin.py --discriminator 3840   (on the bus of DBUS_SYSTEM_BUS_ADDRESS; prints "ready" once it owns org.bluez)
"""
import argparse
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
PROPERTIES = "org.freedesktop.DBus.Properties"
ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
GATT_SERVICE = "org.bluez.GattService1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
MATTER_SERVICE = "0000fff6-0000-1000-8000-00805f9b34fb"
C1 = "18ee2ef5-263d-4559-959f-4f9c429f9d11"
C2 = "18ee2ef5-263d-4559-959f-4f9c429f9d12"
ADAPTER_PATH = "/org/bluez/hci0"
DEVICE_ADDRESS = "02:00:00:00:0F:00"
DEVICE_PATH = ADAPTER_PATH + "/dev_02_00_00_00_0F_00"
SERVICE_PATH = DEVICE_PATH + "/service0010"
C1_PATH = SERVICE_PATH + "/char0011"
C2_PATH = SERVICE_PATH + "/char0013"


class Failed(dbus.DBusException):
    _dbus_error_name = "org.bluez.Error.Failed"


class BusObject(dbus.service.Object):
    interface = ""

    def __init__(self, bus, path, properties):
        super().__init__(bus, path)
        self.path = path
        self.properties = properties

    def change(self, **changed):
        self.properties.update(changed)
        self.PropertiesChanged(self.interface, dbus.Dictionary(changed, signature="sv"), dbus.Array([], signature="s"))

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.properties[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.properties

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Root(dbus.service.Object):
    def __init__(self, bus, discriminator):
        super().__init__(bus, "/")
        self.bus = bus
        self.objects = {}
        self.discriminator = discriminator
        self.received = []
        self.filters = []
        self.adapter = Adapter(bus, self)
        self.add(self.adapter)
        self.device = None

    def add(self, obj):
        self.objects[obj.path] = obj
        self.InterfacesAdded(obj.path, {obj.interface: obj.properties})

    @dbus.service.method(OBJECT_MANAGER, out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        return {path: {obj.interface: obj.properties} for path, obj in self.objects.items()}

    @dbus.service.signal(OBJECT_MANAGER, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.method("org.swifthome.StandIn", out_signature="aay")
    def Received(self):
        return [dbus.ByteArray(bytes(message)) for message in self.received]

    @dbus.service.method("org.swifthome.StandIn", out_signature="aa{sv}")
    def Filters(self):
        return self.filters

    @dbus.service.method("org.swifthome.StandIn", in_signature="b")
    def SetPowered(self, powered):
        self.adapter.change(Powered=dbus.Boolean(powered))

    @dbus.service.method("org.swifthome.StandIn")
    def DropConnection(self):
        if self.device:
            self.device.dropped()

    def discovered(self):
        if self.device is None:
            self.device = Device(self.bus, self)
            self.add(self.device)


class Adapter(BusObject):
    interface = ADAPTER

    def __init__(self, bus, root):
        super().__init__(bus, ADAPTER_PATH, {"Address": "00:00:00:00:00:01", "Powered": True, "Discovering": False})
        self.root = root

    @dbus.service.method(ADAPTER, in_signature="a{sv}")
    def SetDiscoveryFilter(self, filter):
        self.root.filters.append(filter)

    @dbus.service.method(ADAPTER)
    def StartDiscovery(self):
        if self.properties["Discovering"]:
            raise dbus.DBusException("Operation already in progress", name="org.bluez.Error.InProgress")
        self.change(Discovering=True)
        GLib.timeout_add(30, lambda: self.root.discovered() and False)

    @dbus.service.method(ADAPTER)
    def StopDiscovery(self):
        self.change(Discovering=False)


class Device(BusObject):
    interface = DEVICE

    def __init__(self, bus, root):
        discriminator = root.discriminator
        service_data = bytes([0x00, discriminator & 0xFF, discriminator >> 8, 0xF1, 0xFF, 0x00, 0x80, 0x00])
        super().__init__(bus, DEVICE_PATH, {
            "Address": DEVICE_ADDRESS, "Name": "MATTER-%d" % discriminator, "RSSI": dbus.Int16(-52),
            "Adapter": dbus.ObjectPath(ADAPTER_PATH), "Connected": False, "ServicesResolved": False,
            "UUIDs": dbus.Array([MATTER_SERVICE], signature="s"),
            "ServiceData": dbus.Dictionary({MATTER_SERVICE: dbus.ByteArray(service_data)}, signature="sv"),
        })
        self.root = root
        self.peripheral = None

    @dbus.service.method(DEVICE)
    def Connect(self):
        self.change(Connected=True)
        self.peripheral = Peripheral(self.root)
        GLib.timeout_add(20, self.resolve)

    def resolve(self):
        if SERVICE_PATH not in self.root.objects:
            self.root.add(Service(self.root.bus))
            self.root.add(Characteristic(self.root.bus, C1_PATH, C1, ["write"], self.peripheral, mtu=247))
            self.root.add(Characteristic(self.root.bus, C2_PATH, C2, ["indicate"], self.peripheral))
        else:
            for path in (C1_PATH, C2_PATH):
                self.root.objects[path].peripheral = self.peripheral
        self.peripheral.c2 = self.root.objects[C2_PATH]
        self.change(ServicesResolved=True)
        return False

    @dbus.service.method(DEVICE)
    def Disconnect(self):
        self.dropped()

    def dropped(self):
        if self.properties["Connected"]:
            self.change(Connected=False, ServicesResolved=False)


class Service(BusObject):
    interface = GATT_SERVICE

    def __init__(self, bus):
        super().__init__(bus, SERVICE_PATH, {"UUID": MATTER_SERVICE, "Device": dbus.ObjectPath(DEVICE_PATH),
                                             "Primary": True})


class Characteristic(BusObject):
    interface = CHARACTERISTIC

    def __init__(self, bus, path, uuid, flags, peripheral, mtu=None):
        properties = {"UUID": uuid, "Service": dbus.ObjectPath(SERVICE_PATH), "Flags": dbus.Array(flags, signature="s"),
                      "Value": dbus.ByteArray(b""), "Notifying": False}
        if mtu:
            properties["MTU"] = dbus.UInt16(mtu)
        super().__init__(bus, path, properties)
        self.peripheral = peripheral

    @dbus.service.method(CHARACTERISTIC, in_signature="aya{sv}")
    def WriteValue(self, value, options):
        if "write" not in self.properties["Flags"]:
            raise dbus.DBusException("Write not permitted", name="org.bluez.Error.NotPermitted")
        if options.get("type", "request") != "request":
            raise Failed("C1 takes write requests (type request), got %s" % options.get("type"))
        self.peripheral.written(bytes(value))

    @dbus.service.method(CHARACTERISTIC)
    def StartNotify(self):
        if "indicate" not in self.properties["Flags"]:
            raise dbus.DBusException("Notify not supported", name="org.bluez.Error.NotSupported")
        self.change(Notifying=True)
        self.peripheral.notifying()

    def indicate(self, packet):
        self.change(Value=dbus.ByteArray(bytes(packet)))


class Peripheral:
    """A scripted BTP peripheral (Matter Core §4.19.4): the handshake, then each message acknowledged and kept."""

    def __init__(self, root):
        self.root = root
        self.c2 = None
        self.pending = None
        self.sequence = 0
        self.message = b""

    def written(self, packet):
        if packet[:2] == b"\x65\x6c":
            mtu = packet[6] | packet[7] << 8
            window = min(packet[8], 6)
            size = min(mtu - 3, 244) if mtu > 3 else 20
            self.pending = bytes([0x65, 0x6C, 0x04, size & 0xFF, size >> 8, window])
            return
        flags, index = packet[0], 1
        if flags & 0x08:
            index += 1
        sequence = packet[index]
        index += 1
        if flags & 0x01:
            index += 2
            self.message = b""
        self.message += packet[index:]
        if flags & 0x04:
            self.root.received.append(self.message)
        self.sequence = (self.sequence + 1) & 0xFF
        # Acknowledged at once, in a packet of its own.
        GLib.timeout_add(5, lambda: self.c2.indicate(bytes([0x08, sequence, self.sequence])) and False)

    def notifying(self):
        if self.pending:
            response, self.pending = self.pending, None
            GLib.timeout_add(5, lambda: self.c2.indicate(response) and False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--discriminator", type=int, default=3840)
    arguments = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    root = Root(bus, arguments.discriminator)
    name = dbus.service.BusName("org.bluez", bus)
    print("ready", flush=True)
    GLib.MainLoop().run()
    del name


if __name__ == "__main__":
    sys.exit(main())
