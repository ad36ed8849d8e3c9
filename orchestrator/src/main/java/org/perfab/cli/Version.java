package org.perfab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** Reads perfab's version from the properties the build writes into the jar. */
final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        // The JVM perfab runs in, which --version describes, whatever the session.
        return new String[] {
            "perfab " + p.getProperty("version", "unknown"),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
        };
    }
}
