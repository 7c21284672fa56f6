package io.kubelix.resource.core;

import java.time.Duration;

/**
 * apimachinery's duration.HumanDuration ({@code 5m}, {@code 3d4h}), for cells that print a time
 * inside other text, such as a pod's {@code 2 (5m ago)} restarts; the Table builder renders plain
 * age cells itself.
 */
final class HumanDuration {

    private HumanDuration() {
    }

    static String format(Duration d) {
        long seconds = d.getSeconds();
        if (seconds < 0 && d.getNano() > 0) {
            seconds++;
        }
        if (seconds < -1) {
            return "<invalid>";
        }
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            return seconds % 60 == 0 ? minutes + "m" : minutes + "m" + seconds % 60 + "s";
        }
        if (minutes < 180) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            return minutes % 60 == 0 ? hours + "h" : hours + "h" + minutes % 60 + "m";
        }
        if (hours < 48) {
            return hours + "h";
        }
        long days = hours / 24;
        if (hours < 24 * 8) {
            return hours % 24 == 0 ? days + "d" : days + "d" + hours % 24 + "h";
        }
        if (hours < 24 * 365 * 2) {
            return days + "d";
        }
        long years = days / 365;
        if (hours < 24 * 365 * 8) {
            return days % 365 == 0 ? years + "y" : years + "y" + days % 365 + "d";
        }
        return years + "y";
    }
}
