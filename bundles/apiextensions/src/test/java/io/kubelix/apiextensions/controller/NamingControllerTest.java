package io.kubelix.apiextensions.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.Crds;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's naming controller: names accepted unless another CRD of the group has them, with kube's reasons. */
class NamingControllerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode crd(String name, String names, String accepted) throws Exception {
        String plural = name.substring(0, name.indexOf('.'));
        return (ObjectNode) JSON.readTree(("{'metadata':{'name':'" + name + "'},'spec':{'group':'" + name.substring(plural.length() + 1)
                + "','names':" + names + "},'status':{'acceptedNames':" + accepted + "}}").replace('\'', '"'));
    }

    @Test
    void freshNamesAreAcceptedAndTheCrdIsInstalling() throws Exception {
        ObjectNode crd = crd("crontabs.example.com", "{'plural':'crontabs','singular':'crontab','kind':'CronTab',"
                + "'listKind':'CronTabList','shortNames':['ct'],'categories':['all']}", "{}");
        assertTrue(NamingController.calculate(crd, List.of(crd)));
        assertEquals(JSON.readTree("{\"plural\":\"crontabs\",\"singular\":\"crontab\",\"shortNames\":[\"ct\"],\"kind\":\"CronTab\","
                + "\"listKind\":\"CronTabList\",\"categories\":[\"all\"]}"), crd.path("status").path("acceptedNames"));
        assertEquals("NoConflicts", Crds.condition(crd, Crds.NAMES_ACCEPTED).path("reason").asText());
        assertEquals("Installing", Crds.condition(crd, Crds.ESTABLISHED).path("reason").asText());
        assertEquals("False", Crds.condition(crd, Crds.ESTABLISHED).path("status").asText());
        assertFalse(NamingController.calculate(crd, List.of(crd)), "a second pass changes nothing");
    }

    @Test
    void namesAnotherCrdOfTheGroupAcceptedAreConflicts() throws Exception {
        ObjectNode other = crd("crontabs.example.com", "{'plural':'crontabs','kind':'CronTab'}",
                "{'plural':'crontabs','singular':'crontab','kind':'CronTab','listKind':'CronTabList','shortNames':['ct']}");
        ObjectNode crd = crd("crons.example.com", "{'plural':'crons','singular':'cron','kind':'CronTab','listKind':'CronList',"
                + "'shortNames':['ct']}", "{}");
        NamingController.calculate(crd, List.of(other, crd));
        assertEquals("False", Crds.condition(crd, Crds.NAMES_ACCEPTED).path("status").asText());
        assertEquals("KindConflict", Crds.condition(crd, Crds.NAMES_ACCEPTED).path("reason").asText());
        assertEquals("\"CronTab\" is already in use", Crds.condition(crd, Crds.NAMES_ACCEPTED).path("message").asText());
        assertEquals("crons", crd.path("status").path("acceptedNames").path("plural").asText());
        assertFalse(crd.path("status").path("acceptedNames").has("shortNames"));
        assertEquals("NotAccepted", Crds.condition(crd, Crds.ESTABLISHED).path("reason").asText());
    }
}
