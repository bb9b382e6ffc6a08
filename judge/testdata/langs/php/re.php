<?php
throw new Exception("broken");
