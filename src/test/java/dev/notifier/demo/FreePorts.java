package dev.notifier.demo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Ports nobody listens on right now, for demo runs that must not collide with anything. */
final class FreePorts {

    private FreePorts() {
    }

    static int one() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** {@code --kafka-port N --smtp-port N ...}: a distinct free port for every port option of the demo. */
    static List<String> demoOptions() throws IOException {
        List<String> args = new ArrayList<>();
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (DemoPort port : DemoPort.values()) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(socket);
                args.addAll(List.of(port.option, String.valueOf(socket.getLocalPort())));
            }
        } finally {
            for (ServerSocket socket : held) {
                socket.close();
            }
        }
        return args;
    }
}
